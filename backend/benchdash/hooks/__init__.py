"""Webhooks from git hosts: a push to a followed branch queues a run of its head."""
