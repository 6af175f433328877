"""The table's web page: FastAPI app, live updates, lineup editor and virtual table."""
