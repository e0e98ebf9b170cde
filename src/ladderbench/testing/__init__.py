"""Test doubles that ship with the package: a fault-injecting OpenAI-compatible server."""
