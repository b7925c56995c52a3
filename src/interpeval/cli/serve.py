"""`interpeval serve`: the web app over a results store (loopback only unless --host says otherwise)."""

from __future__ import annotations

from pathlib import Path

import typer


def serve(store: Path = typer.Option(None, help="SQLite store (default: $INTERPEVAL_STORE or the user data dir)."),
          host: str = typer.Option("127.0.0.1", help="Address to bind; anything but loopback exposes the app."),
          port: int = typer.Option(8000, help="Port to listen on."),
          tasks: Path = typer.Option(None, help="Probing task folder: adds the majority baseline to the probing views."),
          max_body: int = typer.Option(2 << 20, help="Largest request body in bytes (larger ones get 413)."),
          add_user: str = typer.Option(None, help="Create this user, print its token once, and exit (no server)."),
          role: str = typer.Option("admin", help="Role for --add-user: admin, annotator or checker.")) -> None:
    """Browse runs, leaderboards and the probing dashboard; run annotation studies."""
    if add_user:
        from interpeval.store.studies import Studies

        with Studies(store) as studies:
            user, token = studies.add_user(add_user, role)
            print(f"user {user.name} ({user.role}) created in {studies.path}\ntoken (shown once): {token}")
        return
    import uvicorn

    from interpeval.web import create_app

    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: binding {host}: the app is reachable from other machines", flush=True)
    app = create_app(store, max_body=max_body, tasks_dir=tasks)
    print(f"interpeval serve: http://{host}:{port}/ (store {store or 'default'})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", limit_concurrency=512)
