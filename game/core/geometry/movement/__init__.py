"""Movement in inches (GEO-7, GEO-8, GEO-24..27): path cost, the navigation graph, shortest paths and reach."""
