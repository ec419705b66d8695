"""The table server: every game of fuyuki online (a FastAPI server, its storage, its pages).

    from fuyuki.web.app import create_app
    app = create_app("/var/lib/fuyuki")      # SQLite (WAL) in that directory

``fuyuki serve`` runs it with uvicorn (docs/web.md).
"""
