"""Alerts opened by fail verdicts, acknowledged by people, resolved by recovery."""
