"""The command line (Typer): one module per group of commands; ``analyzer.cli.main`` runs it."""
