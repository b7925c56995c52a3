"""The web app's routers, in the order :func:`interpeval.web.app.create_app` mounts them."""
