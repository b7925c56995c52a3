"""`interpeval serve`: the web app over a results store (loopback only unless --host says otherwise)."""

from __future__ import annotations

from pathlib import Path

import typer

from interpeval.errors import OptionError


def serve(store: Path = typer.Option(None, help="SQLite store (default: $INTERPEVAL_STORE or the user data dir)."),
          host: str = typer.Option("127.0.0.1", help="Address to bind; anything but loopback exposes the app."),
          port: int = typer.Option(8000, help="Port to listen on."),
          tasks: Path = typer.Option(None, help="Probing task folder: adds the majority baseline to the probing views."),
          max_body: int = typer.Option(2 << 20, help="Largest request body in bytes (larger ones get 413)."),
          add_user: str = typer.Option(None, help="Create this user, print its token once, and exit (no server)."),
          role: str = typer.Option("admin", help="Role for --add-user: admin, annotator or checker.")) -> None:
    """Browse runs, leaderboards and the probing dashboard; run annotation studies."""
    from interpeval import validate

    validate.store(store)
    if tasks is not None:
        validate.input_dir(tasks, "--tasks")
    if not 0 < port < 65536:
        raise OptionError("--port", f"must be 1..65535, got {port}")
    validate.at_least(max_body, 1, "--max-body")
    if add_user:
        from interpeval.store.studies import ROLES

        validate.one_of(role, ROLES, "--role")
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
