"""benchdash.toml: a project's own manifest is checked field by field, each mistake refused with
a message naming the field, and a good one becomes the body its agent registers."""

from __future__ import annotations

import pytest

from benchdash_runner.projectfile import ProjectManifestError, argv, parse, registration

GOOD = """
name = "Tiny"
language = "Python"
headline = { benchmark = "loop", metric = "time" }

[profiles.quick]
build = "python3 -m compileall -q ."
bench = ["python3", "bench.py", "--out", "out/hyperfine.json"]
output = "out/hyperfine.json"
format = "hyperfine"
repetitions = 3
time_limit_s = 120

[schedule]
cron = "0 3 * * *"
profile = "quick"

[[metrics]]
name = "time"
unit = "ms"
direction = "lower_is_better"
warn = 8.0
fail = 15.0
"""


def test_a_good_manifest_becomes_the_registration_of_its_system() -> None:
    m = parse(GOOD, "benchdash.toml")
    assert m.profiles["quick"].build_timeout_s == 1800  # the default build limit
    body = registration(m, "tiny")
    assert body["system"] == "tiny" and body["name"] == "Tiny"
    assert body["driver"] == {"manifest": "benchdash.toml", "pass_env": []}
    quick = body["profiles"]["quick"]
    assert (quick["time_limit_s"], quick["repetitions"], quick["format"]) == (120, 3, "hyperfine")
    assert body["metrics"][0] | {"warn": 8.0, "fail": 15.0} == body["metrics"][0]
    assert body["schedule"] == {"cron": "0 3 * * *", "profile": "quick"}
    assert argv(m.profiles["quick"].build or "") == ["sh", "-c", "python3 -m compileall -q ."]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (('bench = ["python3", "bench.py", "--out", "out/hyperfine.json"]\n', ""),
         "profiles.quick.bench is required"),
        (('format = "hyperfine"', 'format = "hyperfin"'),
         "profiles.quick.format: unknown format 'hyperfin'"),
        (('output = "out/hyperfine.json"', 'output = "../elsewhere.json"'),
         "profiles.quick.output"),
        (("time_limit_s = 120", "time_limit_s = -5"), "profiles.quick.time_limit_s"),
        (("time_limit_s = 120", "time_limit = 120"), "profiles.quick.time_limit: Extra inputs"),
        (("repetitions = 3", 'repetitions = "three"'), "profiles.quick.repetitions"),
        (('direction = "lower_is_better"', 'direction = "down"'), "metrics.0.direction"),
        (("fail = 15.0", "fail = 2.0"), "metrics.0: fail (2.0) is below warn"),
        (('profile = "quick"', 'profile = "nightly"'), "schedule.profile: no profile 'nightly'"),
        (("[profiles.quick]", "[profiles.'no spaces']"), "profiles.no spaces.[key]"),
        (('name = "Tiny"', "name = "), "not TOML"),
    ],
)  # fmt: skip
def test_each_mistake_is_refused_naming_its_field(change: tuple[str, str], says: str) -> None:
    old, new = change
    assert old in GOOD
    with pytest.raises(ProjectManifestError) as caught:
        parse(GOOD.replace(old, new, 1), "repo@main:benchdash.toml")
    assert str(caught.value).startswith("repo@main:benchdash.toml: ")
    assert says in str(caught.value), str(caught.value)


def test_no_profiles_or_a_foreign_system_is_refused() -> None:
    with pytest.raises(ProjectManifestError, match="profiles: Field required"):
        parse('name = "x"\n', "benchdash.toml")
    m = parse('system = "other"\n' + GOOD, "benchdash.toml")
    with pytest.raises(ProjectManifestError, match="system: the manifest is for 'other'"):
        registration(m, "tiny")


def test_a_driver_script_needs_no_commands() -> None:
    text = '[driver]\ncommand = ["tools/driver.py"]\npass_env = ["TINY_KNOB"]\n\n'
    text += "[profiles.quick]\ntime_limit_s = 60\noptions = { cpu_profile = true }\n"
    m = parse(text, "benchdash.toml")
    assert m.driver.command == ["tools/driver.py"] and m.driver.pass_env == ["TINY_KNOB"]
    assert m.profiles["quick"].options == {"cpu_profile": True}
    with pytest.raises(ProjectManifestError, match=r"driver\.pass_env\.0"):
        parse(text.replace('"TINY_KNOB"', '"NOT-A-NAME"'), "benchdash.toml")
