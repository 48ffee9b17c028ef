"""Loopback networking for the scripted tests. Standard library only."""
import socket


def free_port():
    """A loopback port where nothing listens (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
