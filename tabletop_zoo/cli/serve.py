"""`tabletop-zoo serve`: the local web app."""

from __future__ import annotations

import typer


def serve(
    host: str = typer.Option(
        "127.0.0.1",
        "--host",
        help="address to bind (127.0.0.1: this machine only); requests must name it or a loopback name as their "
        "Host (bound to 0.0.0.0 or ::, this machine's host name)",
    ),
    port: int = typer.Option(8000, "--port", help="TCP port"),
    runs: list[str] | None = typer.Option(
        None,
        "--runs",
        help="arena run folder or folder of replay files the browser may "
        "watch; repeat for several (nothing else is read)",
    ),
    models: str | None = typer.Option(
        None,
        "--models",
        help="folder of model files (.zip, .pt) the browser may play, by name: a seat policy:model=NAME or "
        "az:model=NAME, NAME a file's path inside the folder (a seat never names a file itself)",
    ),
) -> None:
    """Watch and play in the browser: a local web app (open http://HOST:PORT) to play against agents, watch
    them at a chosen pace, and step through arena games and replays. The app has no authentication: it
    answers only Host names of this machine's loopback or HOST, and warns when HOST is not loopback."""
    try:
        from ..serve import create_app
        from ..serve.guard import is_loopback
    except ImportError as e:
        raise typer.BadParameter(f'the web app needs the serve extra: pip install -e ".[serve]" ({e})') from None
    import uvicorn

    if not 0 < port < 65536:
        raise typer.BadParameter(f"--port must be 1..65535, got {port}")
    try:
        web = create_app(runs or [], models=models, host=host)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    if not is_loopback(host):
        typer.echo(
            f"warning: --host {host} is reachable from other machines and the app has no authentication: anyone "
            f"who can reach port {port} can start games and spend this machine's CPU (--host 127.0.0.1 keeps it local)",
            err=True,
        )
    typer.echo(f"tabletop-zoo serving on http://{host}:{port}/ (Ctrl-C stops)")
    uvicorn.run(web, host=host, port=port, log_level="warning")
