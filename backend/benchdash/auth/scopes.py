"""Token scopes, least privilege (DESIGN.md "Security")."""

# upload: store results; agent: register manifests and report runs (runner agents);
# trigger: queue runs, acknowledge alerts, pin baselines; admin: everything, thresholds, tokens.
SCOPES = ("upload", "agent", "trigger", "admin")
