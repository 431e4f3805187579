"""Notifications: subscriptions, the outbox written in the alert's or run's transaction, and
delivery through the job queue (webhooks signed with HMAC-SHA256, Slack, e-mail)."""
