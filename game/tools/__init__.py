"""Developer tools: generators and checks run from the command line."""
