"""Playing hands: the runner, where pieces run (threads or Dask), the result store, interrupts, tables and statistics."""
