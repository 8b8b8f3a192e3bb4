"""``fivehundred serve``: tables in the browser (an ASGI app, WebSockets, a SQLite store)."""
