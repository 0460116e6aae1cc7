"""Server concerns of the app, below every feature: the dataset store on disk, the shared
result cache, request limits, security headers, the streaming upload route and sign-in by a
reverse proxy. Nothing here imports a feature, the page or the app's state."""
