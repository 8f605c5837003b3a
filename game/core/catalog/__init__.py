"""Rules content: weapons, armour, cover, experience, skills, equipment, recruits, hostiles and bodies as frozen
profiles (`profiles.py`), read and validated from game/data/*.toml (`parse.py`) with the house settings applied
(`loader.py`, `load_catalog`). Part of the data model: imports only game.core.settings and game.core.tolerance.
This face re-exports the profiles and the loader's entry points."""
from __future__ import annotations

from game.core.catalog.loader import FILES, build_catalog, default_data_dir, load_catalog, read_raw, setting_fields
from game.core.catalog.profiles import (
    Armour,
    Body,
    Catalog,
    CatalogError,
    CoverClass,
    Equipment,
    EquipmentTable,
    ExperienceLevel,
    Grenade,
    GrenadeEffect,
    HostileAttack,
    HostileProfile,
    Obscured,
    RecruitProfile,
    Skill,
    Special,
    Template,
    TemplateCover,
    UnitForm,
    Weapon,
    WeaponKind,
    WeaponProfile,
)

__all__ = [
    "Armour", "Body", "Catalog", "CatalogError", "CoverClass", "Equipment", "EquipmentTable", "ExperienceLevel",
    "Grenade", "GrenadeEffect", "HostileAttack", "HostileProfile", "Obscured", "RecruitProfile", "Skill", "Special",
    "Template", "TemplateCover", "UnitForm", "Weapon", "WeaponKind", "WeaponProfile", "FILES", "build_catalog",
    "default_data_dir", "load_catalog", "read_raw", "setting_fields",
]
