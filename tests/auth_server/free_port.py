#!/usr/bin/env python3
"""Prints a TCP port free on 127.0.0.1 a moment ago (the SDK example's second port: its AS)."""
import socket

s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
