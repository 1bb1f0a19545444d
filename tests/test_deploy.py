"""The packaging against the service: the Dockerfile, the Kubernetes manifests (each
checked against the Kubernetes API schemas, offline, as written and as kustomize builds
them), the smoke test script, and the Prometheus and Grafana files.

Nothing here builds an image or talks to a cluster: ``make image`` and
``deploy/smoke.sh`` do that (deploy/README.md).
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped, unused-ignore]
import pytest
import yaml

import domino_rules
from domino_rules.doors.rest import HEALTH_SERVICES, QUIET_PATHS
from domino_rules.serving import supervisor
from domino_rules.serving.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
KUBERNETES = DEPLOY / "kubernetes"
BASE = KUBERNETES / "base"
PRODUCTION = KUBERNETES / "overlays" / "production"
TRACING = KUBERNETES / "overlays" / "tracing"
OVERLAYS = {"base": BASE, "production": PRODUCTION, "tracing": TRACING}
DEFAULTS = Settings()
#: The oldest and the newest Kubernetes the manifests are checked against.
KUBERNETES_VERSIONS = ("1.25", kubernetes_validate.utils.latest_version())
#: Kinds that are not Kubernetes' own (custom resources): no schema ships for them, so
#: their shape is checked by hand below.
CUSTOM_KINDS = {"ServiceMonitor"}

Doc = dict[str, Any]


# ------------------------------------------------------------------ Dockerfile


def _dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text()
    logical, current = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        logical.append(current + stripped)
        current = ""
    out = []
    for line in logical:
        word, _, rest = line.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def test_dockerfile_matches_the_cli_defaults() -> None:
    instructions = _dockerfile_instructions()
    by_name: dict[str, list[str]] = {}
    for name, args in instructions:
        by_name.setdefault(name, []).append(args)
    # the base image is a build argument, python:3.11-slim unless told otherwise, and
    # declared before the first FROM so that every stage may use it
    assert instructions[0] == ("ARG", "BASE=python:3.11-slim")
    assert [f.split()[0] for f in by_name["FROM"]] == ["${BASE}", "${BASE}"]
    # The final stage: its own instructions, after the last FROM.
    last_from = max(i for i, (name, _) in enumerate(instructions) if name == "FROM")
    final = instructions[last_from:]
    commands = [json.loads(args) for name, args in final if name == "CMD"]
    assert commands == [["domino-rules", "serve"]]
    exposed = {
        int(port.split("/")[0]) for name, args in final if name == "EXPOSE" for port in args.split()
    }
    assert exposed == {DEFAULTS.grpc_port, DEFAULTS.http_port} == {50051, 8080}
    users = [args for name, args in final if name == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    env = " ".join(args for name, args in final if name == "ENV")
    assert re.search(r"\bDOMINO_RULES_HOST=0\.0\.0\.0\b", env)
    (health,) = [args for name, args in final if name == "HEALTHCHECK"]
    command = json.loads(health[health.index("CMD") + 3 :].strip())
    assert command[:2] == ["python", "-c"]
    assert "/healthz" in command[2] and f"'{DEFAULTS.http_port}'" in command[2]
    compile(command[2], "<healthcheck>", "exec")
    installs = [args for name, args in instructions if name == "RUN" and "pip install" in args]
    assert installs and all("-c constraints.txt" in args for args in installs)


def test_dockerignore_keeps_the_context_small() -> None:
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()}
    assert {".venv", ".git", "**/__pycache__", "deploy", "tests"} <= ignored
    assert "service" not in ignored and "pyproject.toml" not in ignored
    assert "constraints.txt" not in ignored and (ROOT / "constraints.txt").is_file()


def test_every_install_takes_the_constraints() -> None:
    """make, CI (through make) and the image install the versions of constraints.txt; the
    file pins every package exactly, and `make lock` remakes it."""
    makefile = (ROOT / "Makefile").read_text()
    installs = [line for line in makefile.splitlines() if "-m pip install" in line]
    # the lock's own fresh venv ($$tmp) is the one install without constraints
    plain = [
        line
        for line in installs
        if "PIP_INSTALL" not in line and "--upgrade pip" not in line and "$$tmp" not in line
    ]
    assert not plain, plain
    assert sum("$(PIP_INSTALL)" in line for line in makefile.splitlines()) >= 4
    assert "PIP_INSTALL := $(BIN)/python -m pip install --quiet -c $(CONSTRAINTS)" in makefile
    assert re.search(r"^lock:", makefile, re.MULTILINE)
    pins = [
        line
        for line in (ROOT / "constraints.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert pins and all(re.fullmatch(r"[A-Za-z0-9_.\-]+==\S+", pin) for pin in pins), pins
    names = {pin.split("==")[0].lower().replace("_", "-") for pin in pins}
    assert {"grpcio", "flask", "pytest", "ruff", "opentelemetry-sdk", "dominoes"} <= names
    assert "domino-rules" not in names


def test_the_smoke_script_is_valid_bash_and_checks_what_it_says() -> None:
    script = DEPLOY / "smoke.sh"
    assert script.stat().st_mode & 0o111, "deploy/smoke.sh is not executable"
    bash = shutil.which("bash")
    if bash is not None:
        result = subprocess.run([bash, "-n", str(script)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
    text = script.read_text()
    for needle in ("/readyz", "/metrics", "/v1/games", "HealthCheckRequest", "healthcheck run"):
        assert needle in text, needle
    assert set(HEALTH_SERVICES) == {"", "domino_rules.v1.DominoRules"}
    assert all(f'"{name}"' in text for name in HEALTH_SERVICES)


def test_with_no_container_engine_make_image_says_what_to_do(tmp_path: Path) -> None:
    """No docker daemon and no podman: exit 2 and a message that names both and ENGINE,
    not a shell's 'command not found'."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("needs bash")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "bash").symlink_to(bash)
    script = str(DEPLOY / "engine.sh")
    env = {"PATH": str(bin_dir)}
    none = subprocess.run([bash, script], capture_output=True, text=True, env=env, check=False)
    assert none.returncode == 2 and none.stdout == ""
    assert "neither is available" in none.stderr and "docker: not installed" in none.stderr
    assert "apt-get install podman" in none.stderr and "ENGINE=" in none.stderr
    docker = bin_dir / "docker"
    docker.write_text("#!/bin/sh\nexit 1\n")  # a client whose daemon does not answer
    docker.chmod(0o755)
    no_daemon = subprocess.run([bash, script], capture_output=True, text=True, env=env, check=False)
    assert no_daemon.returncode == 2 and "daemon does not answer" in no_daemon.stderr
    named = subprocess.run(
        [bash, script],
        capture_output=True,
        text=True,
        env={**env, "ENGINE": "docker --context remote"},
        check=False,
    )
    assert (named.returncode, named.stdout) == (0, "docker --context remote\n")
    missing = subprocess.run(
        [bash, script],
        capture_output=True,
        text=True,
        env={**env, "ENGINE": "nerdctl"},
        check=False,
    )
    assert missing.returncode == 2 and "no 'nerdctl' command" in missing.stderr


# ------------------------------------------------------------------ kustomize


def _documents(path: Path) -> list[Doc]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def _merge(base: Any, patch: Any) -> Any:
    """A strategic merge patch, as far as these manifests use it: maps merge key by key
    (``null`` deletes), lists of named items merge by ``name`` (items new to the list come
    first), anything else replaces."""
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for key, value in patch.items():
            if value is None:
                out.pop(key, None)
            else:
                out[key] = _merge(base[key], value) if key in base else copy.deepcopy(value)
        return out
    named = (
        isinstance(base, list)
        and isinstance(patch, list)
        and all(isinstance(item, dict) and "name" in item for item in base + patch)
    )
    if named:
        merged = [copy.deepcopy(item) for item in base]
        added = []
        for item in patch:
            index = next((i for i, old in enumerate(merged) if old["name"] == item["name"]), None)
            if index is None:
                added.append(copy.deepcopy(item))
            else:
                merged[index] = _merge(merged[index], item)
        return added + merged  # as kustomize does: new items first, in the patch's order
    return copy.deepcopy(patch)


def _containers(doc: Doc) -> Iterator[Doc]:
    spec = doc.get("spec", {}).get("template", {}).get("spec", {})
    yield from spec.get("initContainers", [])
    yield from spec.get("containers", [])


def kustomize(directory: Path) -> list[Doc]:
    """What ``kubectl kustomize DIRECTORY`` builds, for the features these
    kustomizations use: ``resources`` (files and directories), ``patches`` (strategic
    merge files) and ``images``."""
    kustomization = yaml.safe_load((directory / "kustomization.yaml").read_text())
    allowed = {"apiVersion", "kind", "resources", "patches", "images"}
    assert set(kustomization) <= allowed, set(kustomization) - allowed
    docs: list[Doc] = []
    for resource in kustomization.get("resources", []):
        path = directory / resource
        docs += kustomize(path) if path.is_dir() else _documents(path)
    for patch_entry in kustomization.get("patches", []):
        assert set(patch_entry) == {"path"}, patch_entry
        (patch,) = _documents(directory / patch_entry["path"])
        matches = [
            i
            for i, doc in enumerate(docs)
            if (doc["kind"], doc["metadata"]["name"]) == (patch["kind"], patch["metadata"]["name"])
        ]
        assert len(matches) == 1, f"{patch_entry['path']} patches {len(matches)} resources"
        docs[matches[0]] = _merge(docs[matches[0]], patch)
    for image in kustomization.get("images", []):
        for doc in docs:
            for container in _containers(doc):
                name, _, tag = container["image"].partition(":")
                if name == image["name"]:
                    name = image.get("newName", name)
                    tag = image.get("newTag", tag)
                    container["image"] = f"{name}:{tag}" if tag else name
    return docs


def _by_kind(docs: list[Doc]) -> dict[tuple[str, str], Doc]:
    out = {(doc["kind"], doc["metadata"]["name"]): doc for doc in docs}
    assert len(out) == len(docs), "two resources of one kind and name"
    return out


@pytest.fixture(scope="module", params=list(OVERLAYS))
def built(request: pytest.FixtureRequest) -> dict[tuple[str, str], Doc]:
    return _by_kind(kustomize(OVERLAYS[request.param]))


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
@pytest.mark.parametrize("directory", list(OVERLAYS.values()), ids=list(OVERLAYS))
def test_the_kustomize_subset_builds_what_kubectl_does(directory: Path) -> None:
    """Where kubectl is at hand, the built manifests the other tests check are exactly
    what `kubectl kustomize` builds."""
    result = subprocess.run(
        ["kubectl", "kustomize", str(directory)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert _by_kind([d for d in yaml.safe_load_all(result.stdout) if d]) == _by_kind(
        kustomize(directory)
    )


# ------------------------------------------------------------------ schemas


def _manifest_files() -> list[Path]:
    return sorted(p for p in KUBERNETES.rglob("*.yaml") if p.name != "kustomization.yaml")


def test_every_file_is_yaml_without_tabs() -> None:
    files = sorted(KUBERNETES.rglob("*.yaml"))
    assert {f.relative_to(KUBERNETES).as_posix() for f in files} >= {
        "base/kustomization.yaml",
        "base/deployment.yaml",
        "base/service.yaml",
        "base/service-headless.yaml",
        "base/hpa.yaml",
        "base/pdb.yaml",
        "base/networkpolicy.yaml",
        "base/secret.example.yaml",
        "overlays/production/kustomization.yaml",
        "overlays/production/servicemonitor.yaml",
        "overlays/tracing/kustomization.yaml",
        "overlays/tracing/networkpolicy-otlp.yaml",
    }
    for path in files:
        assert "\t" not in path.read_text(), path
        assert len(_documents(path)) == 1, path


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_manifest_and_every_build_fits_the_kubernetes_schemas(version: str) -> None:
    """Each resource as written (a complete one: the base and the Secret example) and as
    built (base and production overlay), strictly: no unknown field, no wrong type."""
    base_files = [p for p in _manifest_files() if p.parent == BASE]
    resources = [(str(p.relative_to(ROOT)), doc) for p in base_files for doc in _documents(p)]
    for directory in OVERLAYS.values():
        resources += [(f"built {directory.name}", doc) for doc in kustomize(directory)]
    checked = 0
    for where, doc in resources:
        if doc["kind"] in CUSTOM_KINDS:
            continue
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            path = ".".join(str(part) for part in error.path)
            raise AssertionError(f"{where}: {doc['kind']} {path}: {error.message}") from None
        checked += 1
    assert checked >= 6 + 6 + 6 + 7 + 1


def test_the_service_monitor_has_the_operators_shape(built: dict[tuple[str, str], Doc]) -> None:
    """The ServiceMonitor is a custom resource (the Prometheus Operator's): no schema
    ships with kubernetes-validate, so its shape is checked here. It must select the
    Service with the REST port, and only that one (the headless Service would scrape
    every pod a second time)."""
    monitor = built.get(("ServiceMonitor", "domino-rules"))
    if monitor is None:  # the base has none: annotations do it
        return
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1"
    assert set(monitor) == {"apiVersion", "kind", "metadata", "spec"}
    assert set(monitor["spec"]) == {"selector", "endpoints"}
    selector = monitor["spec"]["selector"]["matchLabels"]
    services = [doc for (kind, _), doc in built.items() if kind == "Service"]
    selected = [s for s in services if selector.items() <= s["metadata"]["labels"].items()]
    assert [s["metadata"]["name"] for s in selected] == ["domino-rules"]
    (endpoint,) = monitor["spec"]["endpoints"]
    assert set(endpoint) <= {"port", "path", "interval", "scrapeTimeout"}
    assert endpoint["path"] == "/metrics" and endpoint["port"] in {
        p["name"] for p in selected[0]["spec"]["ports"]
    }
    assert re.fullmatch(r"\d+s", endpoint["interval"]) and re.fullmatch(
        r"\d+s", endpoint["scrapeTimeout"]
    )


# ------------------------------------------------------------------ what they say


def _container(deployment: Doc) -> Doc:
    containers: list[Doc] = deployment["spec"]["template"]["spec"]["containers"]
    (container,) = containers
    return container


def _env(container: Doc) -> dict[str, Doc]:
    return {e["name"]: e for e in container["env"]}


def test_the_deployment_matches_the_service(built: dict[tuple[str, str], Doc]) -> None:
    deployment = built[("Deployment", "domino-rules")]
    assert "replicas" not in deployment["spec"], "the HorizontalPodAutoscaler owns replicas"
    pod = deployment["spec"]["template"]["spec"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    container = _container(deployment)
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"grpc": DEFAULTS.grpc_port, "http": DEFAULTS.http_port}
    env = _env(container)
    # every variable is a setting the service knows (or a standard one), with a valid value
    settings = {
        k: e["value"] for k, e in env.items() if k.startswith("DOMINO_RULES_") and "value" in e
    }
    known = {Settings.variable(name) for name in Settings.names()}
    assert set(settings) <= known, set(settings) - known
    parsed = Settings.from_env({**settings, "DOMINO_RULES_REQUIRE_SEALED": "0"})
    assert parsed.host == "0.0.0.0" and parsed.log_format == "json"
    assert env["DOMINO_RULES_REQUIRE_SEALED"]["value"] == "1"
    secret = yaml.safe_load((BASE / "secret.example.yaml").read_text())
    secret_ref = env["DOMINO_RULES_SEAL_KEYS"]["valueFrom"]["secretKeyRef"]
    assert secret_ref["name"] == secret["metadata"]["name"]
    assert secret_ref["key"] in secret["stringData"]
    # probes: readiness covers both doors, liveness the gateway alone
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert container["startupProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert {"/readyz", "/healthz"} <= QUIET_PATHS  # probes are not counted nor logged
    # scrape annotations name the REST port and /metrics
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert int(annotations["prometheus.io/port"]) == ports["http"]
    assert annotations["prometheus.io/path"] == "/metrics"
    # security
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert {m["mountPath"] for m in container["volumeMounts"]} == {"/tmp"}
    assert env["TMPDIR"]["value"] == "/tmp"  # the metrics directory is made there
    assert container["resources"]["requests"] and container["resources"]["limits"]


def test_the_stop_fits_in_the_termination_grace_period(built: dict[tuple[str, str], Doc]) -> None:
    """On SIGTERM serve says NOT_SERVING at once and serves on for the drain delay, then
    gives calls in flight the grace, and the doors a margin to exit: all of it within
    terminationGracePeriodSeconds. The readiness probe notices within the drain delay, so
    that the pod leaves the endpoints while it still serves; no preStop sleep adds to it."""
    deployment = built[("Deployment", "domino-rules")]
    container = _container(deployment)
    assert "preStop" not in container.get("lifecycle", {}), "the drain delay is the wait"
    env = _env(container)
    settings = Settings.from_env(
        {
            "DOMINO_RULES_DRAIN_DELAY": env["DOMINO_RULES_DRAIN_DELAY"]["value"],
            "DOMINO_RULES_GRACE": env["DOMINO_RULES_GRACE"]["value"],
        }
    )
    assert (settings.drain_delay, settings.grace) == (5, 10)
    needed = settings.drain_delay + settings.grace + supervisor.STOP_MARGIN
    period = deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert needed + 5 <= period <= needed + 10, (needed, period)
    readiness = container["readinessProbe"]
    assert readiness["periodSeconds"] <= 2 and readiness["failureThreshold"] == 1
    # the last probe that can still pass, plus one period and its timeout: within the delay
    noticed = readiness["periodSeconds"] * readiness["failureThreshold"] + readiness.get(
        "timeoutSeconds", 1
    )
    assert noticed <= settings.drain_delay, (noticed, settings.drain_delay)


def test_pods_run_on_a_read_only_root_with_a_memory_tmp(
    built: dict[tuple[str, str], Doc],
) -> None:
    """readOnlyRootFilesystem, and the one place serve writes (its temporary directory:
    metrics files, gunicorn's heartbeat files) an emptyDir on /tmp named by TMPDIR."""
    deployment = built[("Deployment", "domino-rules")]
    container = _container(deployment)
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    (mount,) = container["volumeMounts"]
    assert mount["mountPath"] == "/tmp" == _env(container)["TMPDIR"]["value"]
    volumes = {v["name"]: v for v in deployment["spec"]["template"]["spec"]["volumes"]}
    assert "emptyDir" in volumes[mount["name"]]
    assert not mount.get("readOnly", False)


def test_cpu_requests_equal_limits_so_the_autoscaler_target_means_calls(
    built: dict[tuple[str, str], Doc],
) -> None:
    """serve sizes its doors from the CPU limit, and the autoscaler's target is a share
    of the request: the two are equal, a whole number of cores."""
    resources = _container(built[("Deployment", "domino-rules")])["resources"]
    assert resources["requests"]["cpu"] == resources["limits"]["cpu"]
    assert re.fullmatch(r"\d+", str(resources["limits"]["cpu"]))
    hpa = built[("HorizontalPodAutoscaler", "domino-rules")]
    (metric,) = hpa["spec"]["metrics"]
    assert 50 <= metric["resource"]["target"]["averageUtilization"] <= 80


def _allows_egress(policy: Doc, port: int) -> bool:
    return any(
        p.get("port") == port and p.get("protocol", "TCP") == "TCP"
        for rule in policy["spec"].get("egress", [])
        for p in rule.get("ports", [])
    )


def test_tracing_gets_out_to_the_collector(built: dict[tuple[str, str], Doc]) -> None:
    """Where the pods trace (OTEL_EXPORTER_OTLP_ENDPOINT), a NetworkPolicy selecting them
    lets OTLP out to the endpoint's port; where they do not, only DNS goes out."""
    deployment = built[("Deployment", "domino-rules")]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    env = _env(_container(deployment))
    policies = [
        doc
        for (kind, _), doc in built.items()
        if kind == "NetworkPolicy"
        and doc["spec"]["podSelector"]["matchLabels"].items() <= labels.items()
        and "Egress" in doc["spec"]["policyTypes"]
    ]
    endpoint = env.get("OTEL_EXPORTER_OTLP_ENDPOINT")
    if endpoint is None:
        assert not any(_allows_egress(p, 4317) or _allows_egress(p, 4318) for p in policies)
        return
    port = int(re.fullmatch(r"https?://[^/:]+:(\d+)/?", endpoint["value"]).group(1))  # type: ignore[union-attr]
    protocol = env["OTEL_EXPORTER_OTLP_PROTOCOL"]["value"]
    assert (protocol, port) in {("grpc", 4317), ("http/protobuf", 4318)}
    (otlp,) = [p for p in policies if _allows_egress(p, port)]
    (rule,) = otlp["spec"]["egress"]
    assert rule["to"], "only to the collector, not anywhere"
    assert otlp["metadata"]["name"] != "domino-rules"  # its own policy, the base's kept


def test_the_services_autoscaler_budget_and_policy_agree(
    built: dict[tuple[str, str], Doc],
) -> None:
    deployment = built[("Deployment", "domino-rules")]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    ports = {p["name"]: p["containerPort"] for p in _container(deployment)["ports"]}

    service = built[("Service", "domino-rules")]
    assert {p["name"]: p["port"] for p in service["spec"]["ports"]} == ports
    assert service["spec"]["selector"].items() <= labels.items()

    headless = built[("Service", "domino-rules-headless")]
    assert headless["spec"]["clusterIP"] == "None"
    assert headless["spec"]["selector"].items() <= labels.items()
    assert [p["targetPort"] for p in headless["spec"]["ports"]] == ["grpc"]
    assert headless["spec"].get("publishNotReadyAddresses", False) is False

    hpa = built[("HorizontalPodAutoscaler", "domino-rules")]
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "domino-rules")
    (metric,) = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu" and metric["resource"]["target"]["type"] == (
        "Utilization"
    )
    assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]

    pdb = built[("PodDisruptionBudget", "domino-rules")]
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert 1 <= pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]

    policy = built[("NetworkPolicy", "domino-rules")]
    assert policy["spec"]["podSelector"]["matchLabels"].items() <= labels.items()
    (ingress,) = policy["spec"]["ingress"]
    assert {p["port"] for p in ingress["ports"]} == set(ports)
    assert {p["port"] for rule in policy["spec"]["egress"] for p in rule["ports"]} == {53}


def test_the_tracing_overlay_adds_the_otlp_policy_and_variables_only() -> None:
    production = _by_kind(kustomize(PRODUCTION))
    tracing = _by_kind(kustomize(TRACING))
    assert set(tracing) - set(production) == {("NetworkPolicy", "domino-rules-otlp")}
    added = set(_env(_container(tracing[("Deployment", "domino-rules")]))) - set(
        _env(_container(production[("Deployment", "domino-rules")]))
    )
    assert added == {
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_PROTOCOL",
        "OTEL_SERVICE_NAME",
    }


def test_the_production_overlay_changes_sizes_and_image_only() -> None:
    base = _by_kind(kustomize(BASE))
    production = _by_kind(kustomize(PRODUCTION))
    assert set(production) - set(base) == {("ServiceMonitor", "domino-rules")}
    assert set(base) <= set(production)
    assert _container(production[("Deployment", "domino-rules")])["image"].endswith(
        f"/domino-rules:{domino_rules.__version__}"
    )
    assert (
        production[("HorizontalPodAutoscaler", "domino-rules")]["spec"]["minReplicas"]
        > base[("HorizontalPodAutoscaler", "domino-rules")]["spec"]["minReplicas"]
    )


def test_the_secret_placeholder_is_refused() -> None:
    """Applied unedited, the example must stop the service rather than run unsealed."""
    text = (BASE / "secret.example.yaml").read_text()
    value = yaml.safe_load(text)["stringData"]["seal-keys"]
    with pytest.raises(ValueError, match="DOMINO_RULES_SEAL_KEYS"):
        Settings.from_env({"DOMINO_RULES_SEAL_KEYS": value, "DOMINO_RULES_REQUIRE_SEALED": "1"})
    assert "domino-rules keygen" in text
    for directory in (BASE, PRODUCTION):
        assert ("Secret", "domino-rules-seal-keys") not in _by_kind(kustomize(directory))


# ------------------------------------------------------------------ Prometheus, Grafana


def test_the_prometheus_scrape_job_reads_the_annotations() -> None:
    config = yaml.safe_load((DEPLOY / "prometheus" / "scrape.yaml").read_text())
    (job,) = config["scrape_configs"]
    sources = {label for rule in job["relabel_configs"] for label in rule["source_labels"]}
    for annotation in ("scrape", "port", "path"):
        assert f"__meta_kubernetes_pod_annotation_prometheus_io_{annotation}" in sources


def test_the_grafana_dashboard_is_valid_and_shows_what_it_should() -> None:
    """Valid JSON; panels for requests, errors by reason, p50 and p99 latency from the
    histogram, and calls in flight. That every metric it names exists is checked against
    a live /metrics in tests/test_observability.py."""
    dashboard = json.loads((DEPLOY / "grafana" / "domino-rules.json").read_text())
    assert dashboard["uid"] and dashboard["title"]
    expressions = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    joined = "\n".join(expressions)
    assert "rate(domino_rules_requests_total" in joined
    assert re.search(r"sum by \([^)]*\breason\b[^)]*\) \(rate\(domino_rules_requests_total", joined)
    for quantile in ("0.5", "0.99"):
        assert f"histogram_quantile({quantile}, sum by (le" in joined
    assert "domino_rules_request_duration_seconds_bucket" in joined
    assert "domino_rules_requests_in_flight" in joined
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for expression in expressions:  # brackets balance
        assert expression.count("(") == expression.count(")"), expression
        assert expression.count("{") == expression.count("}"), expression


def test_the_deploy_readme_names_what_it_relies_on() -> None:
    readme = (DEPLOY / "README.md").read_text()
    for needle in (
        "domino-rules keygen",
        "deploy/smoke.sh",
        "make image",
        "--format docker",
        "overlays/production",
        "dns:///domino-rules-headless",
        "/readyz",
        "/metrics",
        "grafana/domino-rules.json",
    ):
        assert needle in readme, needle
