"""What this kibitz is (``kibitz --version``): its version, the build its rules run on, and
the versions of the solver, the rules and the agents, which every stored result names."""

from __future__ import annotations

from importlib import metadata


def native_build() -> str:
    """The build the rules run on: ``native`` with the kernel's version and how it was built
    (tuned for the machine that built it, or portable), or ``python`` and why."""
    from kibitz import native
    if not native.ACTIVE:
        return f"python (the native kernel is {native.STATUS})"
    module = native.load()
    try:
        version = metadata.version("kibitz-native")
    except metadata.PackageNotFoundError:
        version = "of unknown version"
    how = getattr(module, "BUILD", "") or "source"
    built = "built from source" if how == "source" else how
    return f"native (kibitz-native {version}, {built}{', abi3' if getattr(module, 'ABI3', False) else ''})"


def rules_versions() -> str:
    """The rules version of every game and ruleset: one number when they agree."""
    from kibitz.registry import games
    from kibitz.rules import RULESETS
    import kibitz
    versions = {f"{info.slug} ({ruleset})": kibitz.game(info.slug, ruleset).info.rules_version
                for info in games() for ruleset in RULESETS}
    if len(set(versions.values())) == 1:
        return f"{next(iter(versions.values()))} (every game and ruleset)"
    return ", ".join(f"{name} {version}" for name, version in versions.items())


def describe() -> str:
    """The lines ``kibitz --version`` prints."""
    from kibitz import __version__, compiled
    from kibitz.agents import AGENT_VERSIONS
    from kibitz.solver import SOLVER_VERSION
    agents = ", ".join(f"{name} {version}" for name, version in AGENT_VERSIONS.items())
    return "\n".join([
        f"kibitz {__version__}",
        f"rules build: {native_build()}",
        f"compiled solver: {compiled.STATUS}",
        f"solver version {SOLVER_VERSION}; rules version {rules_versions()}; agent versions: {agents}",
    ])
