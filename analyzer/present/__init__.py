"""Presenting results: text, tables, charts and the summaries behind them."""
