"""Entry point for WSGI servers: ``gunicorn app:server``. Builds the app and nothing else."""

from roc_dash.app import create_app

app = create_app()
server = app.server

if __name__ == "__main__":
    app.run(host="127.0.0.1", port=8050)
