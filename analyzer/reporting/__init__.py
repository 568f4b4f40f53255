"""Strategy reports: their content and the Markdown and HTML documents."""
