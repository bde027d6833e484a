"""The revisions, oldest first: ``0001`` the initial schema, ``0002`` the events' days."""
