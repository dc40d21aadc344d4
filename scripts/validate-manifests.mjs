#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Holds the deployment files to the Kubernetes API and to grundyd itself:
//
//  - `kubectl kustomize` builds the base and every overlay;
//  - every document it outputs conforms to its Kubernetes schema
//    (kubernetes-models: apps/v1 Deployment, autoscaling/v2 HPA, ...; a kind
//    without a model fails);
//  - the policy of issue 8 holds in every build: probes on /healthz and
//    /readyz at the "http" port, the restricted securityContext, /tmp
//    writable under a read-only root, the grace period above the drain
//    timeout set in the ConfigMap, no service links (they would set
//    GRUNDYD_PORT), selectors of the Service, HPA and PDB that match the
//    Deployment's pods, resources set, replicas within the HPA's range;
//  - every ConfigMap key is an option of grundyd (`grundyd --help`, else
//    src/server/config/config.c), and grundyd accepts every value (it parses its
//    environment before --help, and exits non-zero on a bad value);
//  - the systemd unit passes `systemd-analyze verify` and rates 2.0 or less
//    on `systemd-analyze security` where systemd is installed, its stop
//    timeout is above the drain timeout of its environment file, and that
//    file holds only grundyd's options, with values grundyd accepts;
//  - negative self-tests: broken copies of the manifests (replicas as a
//    string, root allowed, a key that is no option, a grace period shorter
//    than the drain, and a few more) are caught: those checks are shown to
//    be able to fail.
//
// Usage: node scripts/validate-manifests.mjs OUT.tap [--kubectl PATH]
//        [--grundyd PATH] (scripts/manifests-test.sh finds and installs
// them). Prints TAP and writes it to OUT.tap; exits 1 when a test failed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import YAML from "yaml";

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const K8S = path.join(root, "deploy", "kubernetes");
const UNIT = path.join(root, "deploy", "systemd", "grundyd.service");
const UNIT_ENV = path.join(root, "deploy", "systemd", "grundyd.env");
const POD_LABEL = "app.kubernetes.io/name";

// ---- arguments ---------------------------------------------------------------

const args = process.argv.slice(2);
const tapPath = args.find((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1].startsWith("--")));
const opt = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
};
if (!tapPath) {
    console.error("usage: validate-manifests.mjs OUT.tap [--kubectl PATH] [--grundyd PATH]");
    process.exit(2);
}
const kubectl = opt("--kubectl") || "kubectl";
const grundyd = opt("--grundyd");

// ---- TAP ---------------------------------------------------------------------

const tap = [];
let failures = 0;
function result(ok, name, diags = []) {
    let line = `${ok ? "ok" : "not ok"} ${tap.length + 1} - ${name}`;
    for (const d of diags.slice(0, 30)) line += "\n" + String(d).split("\n").map((l) => "# " + l).join("\n");
    if (diags.length > 30) line += `\n# ... and ${diags.length - 30} more`;
    tap.push(line);
    console.log(line);
    if (!ok) failures++;
}
function skip(name, why) {
    const line = `ok ${tap.length + 1} - ${name} # SKIP ${why}`;
    tap.push(line);
    console.log(line);
}
// check(name, fn): fn returns a list of problems (empty: pass) or throws.
function check(name, fn) {
    let problems;
    try {
        problems = fn();
    } catch (e) {
        problems = [`exception: ${e.stack || e}`];
    }
    result(problems.length === 0, name, problems);
    return problems.length === 0;
}

// ---- grundyd's options ---------------------------------------------------------

// The GRUNDYD_* variables grundyd reads: from its --help when the binary is
// given, else from the option table in config.c.
function grundydOptions() {
    if (grundyd && existsSync(grundyd)) {
        const p = spawnSync(grundyd, ["--help"], { encoding: "utf8", env: { PATH: process.env.PATH }, timeout: 10000 });
        const vars = [...(p.stdout || "").matchAll(/\((GRUNDYD_[A-Z0-9_]+)\)/g)].map((m) => m[1]);
        if (p.status === 0 && vars.length) return { vars: new Set(vars), from: `${grundyd} --help` };
    }
    const text = readFileSync(path.join(root, "src", "server", "config", "config.c"), "utf8");
    return { vars: new Set([...text.matchAll(/"(GRUNDYD_[A-Z0-9_]+)"/g)].map((m) => m[1])), from: "src/server/config/config.c" };
}
const options = grundydOptions();

// grundyd parses its environment before --help: exit 0 means every value is
// accepted. Returns problems.
function grundydAccepts(data) {
    const env = { PATH: process.env.PATH, ...data };
    const p = spawnSync(grundyd, ["--help"], { encoding: "utf8", env, timeout: 10000 });
    return p.status === 0 ? [] : [`grundyd --help with the ConfigMap's environment exited ${p.status}: ${(p.stderr || "").trim()}`];
}

// ---- schemas -------------------------------------------------------------------

// The kubernetes-models class for a document, or null: apps/v1 Deployment is
// require("kubernetes-models/apps/v1").Deployment, v1 Service is
// require("kubernetes-models/v1").Service.
function modelFor(doc) {
    if (typeof doc?.apiVersion !== "string" || typeof doc?.kind !== "string") return null;
    try {
        return require(`kubernetes-models/${doc.apiVersion}`)[doc.kind] || null;
    } catch {
        return null;
    }
}
// Problems of one document against its schema.
function schemaProblems(doc) {
    const Model = modelFor(doc);
    if (!Model) return [`no kubernetes-models schema for ${doc?.apiVersion} ${doc?.kind}`];
    try {
        new Model(doc).validate();
        return [];
    } catch (e) {
        const errs = e.errors || [{ instancePath: "", message: e.message }];
        return errs.map((x) => `${x.instancePath || "/"} ${x.message}${x.params ? " " + JSON.stringify(x.params) : ""}`);
    }
}

// ---- policy ------------------------------------------------------------------

const one = (docs, kind) => docs.filter((d) => d.kind === kind);
const matches = (selector, labels) =>
    !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

// Problems of one kustomize build against the deployment policy.
function policyProblems(docs, { overlay }) {
    const p = [];
    const need = (cond, msg) => {
        if (!cond) p.push(msg);
    };
    for (const kind of ["Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "ConfigMap"])
        need(one(docs, kind).length === 1, `expected exactly one ${kind}, found ${one(docs, kind).length}`);
    const [dep] = one(docs, "Deployment"), [svc] = one(docs, "Service"), [hpa] = one(docs, "HorizontalPodAutoscaler");
    const [pdb] = one(docs, "PodDisruptionBudget"), [cm] = one(docs, "ConfigMap");
    if (!dep || !svc || !hpa || !pdb || !cm) return p;

    const spec = dep.spec || {}, pod = spec.template?.spec || {}, podLabels = spec.template?.metadata?.labels || {};
    const containers = pod.containers || [];
    need(containers.length === 1, `expected one container, found ${containers.length}`);
    const c = containers[0] || {};
    need(matches(spec.selector?.matchLabels, podLabels), "the Deployment's selector does not match its pod labels");
    need(podLabels[POD_LABEL] === "grundyd", `pod label ${POD_LABEL}=grundyd missing`);

    // Port, probes.
    const http = (c.ports || []).find((x) => x.name === "http");
    need(http && http.containerPort === 8080 && (http.protocol || "TCP") === "TCP", "no TCP container port 8080 named http");
    const probe = (name, want) => {
        const pr = c[name];
        need(pr?.httpGet?.path === want && pr?.httpGet?.port === "http", `${name} is not an httpGet of ${want} on port http`);
    };
    probe("livenessProbe", "/healthz");
    probe("readinessProbe", "/readyz");
    if (c.startupProbe) probe("startupProbe", "/healthz");

    // Security: the restricted Pod Security Standard and then some.
    const psc = pod.securityContext || {}, csc = c.securityContext || {};
    const eff = (k) => (csc[k] !== undefined ? csc[k] : psc[k]);
    need(eff("runAsNonRoot") === true, "runAsNonRoot is not true");
    need(eff("runAsUser") === 10001, `runAsUser is ${eff("runAsUser")}, not 10001 (the image's user)`);
    need(csc.readOnlyRootFilesystem === true, "readOnlyRootFilesystem is not true");
    need(csc.allowPrivilegeEscalation === false, "allowPrivilegeEscalation is not false");
    need(csc.privileged !== true, "the container is privileged");
    need((csc.capabilities?.drop || []).includes("ALL"), "capabilities do not drop ALL");
    need((csc.capabilities?.add || []).length === 0, "capabilities are added");
    need(eff("seccompProfile")?.type === "RuntimeDefault", "seccompProfile is not RuntimeDefault");
    need(pod.hostNetwork !== true && pod.hostPID !== true && pod.hostIPC !== true, "the pod shares a host namespace");
    const tmpMount = (c.volumeMounts || []).find((m) => m.mountPath === "/tmp");
    const tmpVol = tmpMount && (pod.volumes || []).find((v) => v.name === tmpMount.name);
    need(tmpVol?.emptyDir !== undefined && !tmpMount.readOnly, "/tmp is not a writable emptyDir (the NDJSON spool)");
    need(pod.enableServiceLinks === false, "enableServiceLinks is not false: the Service grundyd would set GRUNDYD_PORT=tcp://...");
    for (const kind of ["requests", "limits"])
        for (const r of ["cpu", "memory"]) need(c.resources?.[kind]?.[r] !== undefined, `resources.${kind}.${r} is not set`);

    // Configuration: the ConfigMap, all of it options of grundyd.
    const cmRef = (c.envFrom || []).find((e) => e.configMapRef)?.configMapRef?.name;
    need(cmRef === cm.metadata?.name, `envFrom names ConfigMap ${cmRef}, the build has ${cm.metadata?.name}`);
    const data = cm.data || {};
    for (const k of Object.keys(data))
        need(options.vars.has(k), `ConfigMap key ${k} is not an option of grundyd (per ${options.from})`);
    need(data.GRUNDYD_PORT === String(http?.containerPort), `GRUNDYD_PORT ${data.GRUNDYD_PORT} is not the container port`);
    need(data.GRUNDYD_HOST === "0.0.0.0", "GRUNDYD_HOST is not 0.0.0.0: the probes and the Service could not reach it");
    for (const e of c.env || [])
        need(!e.name.startsWith("GRUNDYD_") || options.vars.has(e.name), `env ${e.name} is not an option of grundyd`);

    // Shutdown: the grace period outlasts the drain, which is set explicitly.
    const drain = Number(data.GRUNDYD_DRAIN_TIMEOUT);
    const grace = pod.terminationGracePeriodSeconds;
    need(data.GRUNDYD_DRAIN_TIMEOUT !== undefined && Number.isInteger(drain), "GRUNDYD_DRAIN_TIMEOUT is not set in the ConfigMap");
    need(Number.isInteger(grace) && grace > drain, `terminationGracePeriodSeconds ${grace} is not above the drain timeout ${drain}`);

    // Service, HPA, PDB: all aimed at these pods.
    need(svc.spec?.type === undefined || svc.spec.type === "ClusterIP", `Service type ${svc.spec?.type}, not ClusterIP`);
    need(matches(svc.spec?.selector, podLabels), "the Service's selector does not match the pods");
    const sp = (svc.spec?.ports || [])[0] || {};
    need(sp.port === 80 && (sp.targetPort === "http" || sp.targetPort === http?.containerPort), "the Service does not map port 80 to http");
    const ref = hpa.spec?.scaleTargetRef || {};
    need(ref.kind === "Deployment" && ref.name === dep.metadata?.name && ref.apiVersion === "apps/v1",
        "the HPA does not target the Deployment");
    const cpu = (hpa.spec?.metrics || []).find((m) => m.type === "Resource" && m.resource?.name === "cpu");
    need(cpu?.resource?.target?.type === "Utilization" && cpu.resource.target.averageUtilization > 0,
        "the HPA does not scale on CPU utilisation");
    const min = hpa.spec?.minReplicas ?? 1, max = hpa.spec?.maxReplicas;
    need(min >= 2 && min <= max, `HPA range ${min}..${max}: at least 2 replicas, min <= max`);
    need(spec.replicas === undefined || (spec.replicas >= min && spec.replicas <= max),
        `replicas ${spec.replicas} outside the HPA's range ${min}..${max}`);
    need(matches(pdb.spec?.selector?.matchLabels, podLabels), "the PDB's selector does not match the pods");
    need(pdb.spec?.minAvailable === 1, `PDB minAvailable ${pdb.spec?.minAvailable}, not 1`);
    need(pdb.spec?.minAvailable < min, "the PDB's minAvailable leaves no pod to evict at the HPA's minimum");

    if (overlay) {
        const image = c.image || "";
        need(image !== "grundyd:latest" && image.includes("/"), `the overlay keeps the placeholder image ${image}`);
        const ns = docs.find((d) => d.kind === "Namespace")?.metadata?.name;
        for (const d of docs)
            if (d.kind !== "Namespace")
                need(d.metadata?.namespace && d.metadata.namespace === ns, `${d.kind} ${d.metadata?.name} is not in the namespace ${ns}`);
    }
    return p;
}

// ---- the builds --------------------------------------------------------------

function kustomize(dir) {
    const p = spawnSync(kubectl, ["kustomize", dir], { encoding: "utf8", timeout: 60000 });
    if (p.error) return { error: `${kubectl}: ${p.error.message}` };
    if (p.status !== 0) return { error: `kubectl kustomize exited ${p.status}: ${(p.stderr || "").trim()}` };
    const docs = YAML.parseAllDocuments(p.stdout).map((d) => d.toJS()).filter((d) => d);
    return { docs, warnings: (p.stderr || "").trim() };
}

const kv = spawnSync(kubectl, ["version", "--client"], { encoding: "utf8", timeout: 20000 });
const kubectlVersion = ((kv.stdout || "").match(/(?:GitVersion:"|Client Version: )(v[0-9.]+)/) || [])[1] || "unknown";
console.log(`# kubectl ${kubectlVersion}; grundyd options from ${options.from} (${options.vars.size})`);

const builds = [["base", path.join(K8S, "base"), false]];
for (const o of readdirSync(path.join(K8S, "overlays")).sort())
    builds.push([`overlays/${o}`, path.join(K8S, "overlays", o), true]);

let reference = null; // the base's documents, for the negative self-tests
for (const [name, dir, overlay] of builds) {
    const b = kustomize(dir);
    result(!b.error, `${name}: kubectl kustomize builds (kubectl ${kubectlVersion})`,
        b.error ? [b.error] : b.warnings ? [b.warnings] : []);
    if (b.error) continue;
    for (const d of b.docs)
        check(`${name}: ${d.apiVersion} ${d.kind} ${d.metadata?.name} conforms to the Kubernetes schema`, () => schemaProblems(d));
    check(`${name}: probes, securityContext, grace > drain, selectors, resources, options`, () =>
        policyProblems(b.docs, { overlay }));
    const [cm] = one(b.docs, "ConfigMap");
    if (grundyd && existsSync(grundyd))
        check(`${name}: grundyd accepts every value of the ConfigMap`, () => grundydAccepts(cm?.data || {}));
    else
        skip(`${name}: grundyd accepts every value of the ConfigMap`, "no grundyd binary given");
    if (!overlay) reference = b.docs;
}

// ---- negative self-tests -------------------------------------------------------

// Each breaks one thing in a copy of the base build and expects the check
// that guards it to object, naming what was broken.
if (reference) {
    const mutate = (fn) => {
        const docs = structuredClone(reference);
        fn(Object.fromEntries(docs.map((d) => [d.kind, d])));
        return docs;
    };
    const negatives = [
        ["replicas as a string fails the schema", "/spec/replicas must be integer",
            () => schemaProblems(mutate((k) => { k.Deployment.spec.replicas = "2"; }).find((d) => d.kind === "Deployment"))],
        ["a probe port of the wrong type fails the schema", "/livenessProbe/httpGet/port",
            () => schemaProblems(mutate((k) => { k.Deployment.spec.template.spec.containers[0].livenessProbe.httpGet.port = { n: 1 }; })
                .find((d) => d.kind === "Deployment"))],
        ["runAsNonRoot false fails the policy", "runAsNonRoot is not true",
            () => policyProblems(mutate((k) => {
                k.Deployment.spec.template.spec.securityContext.runAsNonRoot = false;
                k.Deployment.spec.template.spec.containers[0].securityContext.runAsNonRoot = false;
            }), { overlay: false })],
        ["a ConfigMap key that is no option of grundyd fails the policy", "GRUNDYD_THREAD is not an option",
            () => policyProblems(mutate((k) => { k.ConfigMap.data.GRUNDYD_THREAD = "2"; }), { overlay: false })],
        ["a grace period shorter than the drain timeout fails the policy", "is not above the drain timeout 45",
            () => policyProblems(mutate((k) => { k.ConfigMap.data.GRUNDYD_DRAIN_TIMEOUT = "45"; }), { overlay: false })],
        ["a PDB selecting other pods fails the policy", "the PDB's selector does not match",
            () => policyProblems(mutate((k) => { k.PodDisruptionBudget.spec.selector.matchLabels = { app: "other" }; }), { overlay: false })],
        ["a readiness probe on /healthz fails the policy", "readinessProbe is not an httpGet of /readyz",
            () => policyProblems(mutate((k) => {
                k.Deployment.spec.template.spec.containers[0].readinessProbe.httpGet.path = "/healthz";
            }), { overlay: false })],
    ];
    for (const [name, expected, fn] of negatives)
        check(`self-test: ${name}`, () => {
            const problems = fn();
            if (!problems.length) return ["the broken copy passed"];
            return problems.some((x) => x.includes(expected)) ? [] : [`no problem mentions "${expected}":`, ...problems];
        });
    const [cm] = one(reference, "ConfigMap");
    if (grundyd && existsSync(grundyd))
        check("self-test: grundyd refuses a ConfigMap value out of range (GRUNDYD_THREADS=0)", () =>
            grundydAccepts({ ...cm.data, GRUNDYD_THREADS: "0" }).length ? [] : ["grundyd accepted GRUNDYD_THREADS=0"]);
    else skip("self-test: grundyd refuses a ConfigMap value out of range", "no grundyd binary given");
} else {
    result(false, "self-tests", ["the base did not build"]);
}

// ---- systemd -------------------------------------------------------------------

// The unit's TimeoutStopSec must outlast GRUNDYD_DRAIN_TIMEOUT from its
// environment file, and its option names must be grundyd's.
check("systemd: TimeoutStopSec above the drain timeout; the environment file holds only grundyd's options", () => {
    const p = [];
    const unit = readFileSync(UNIT, "utf8"), env = readFileSync(UNIT_ENV, "utf8");
    const stop = Number((unit.match(/^TimeoutStopSec=(\d+)s?$/m) || [])[1]);
    const vars = Object.fromEntries([...env.matchAll(/^\s*(GRUNDYD_[A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
    const drain = Number(vars.GRUNDYD_DRAIN_TIMEOUT);
    if (!Number.isInteger(drain)) p.push("GRUNDYD_DRAIN_TIMEOUT is not set in grundyd.env");
    if (!(stop > drain)) p.push(`TimeoutStopSec ${stop} is not above the drain timeout ${drain}`);
    for (const k of Object.keys(vars)) if (!options.vars.has(k)) p.push(`${k} is not an option of grundyd`);
    for (const line of env.split("\n"))
        if (line.trim() && !line.trim().startsWith("#") && !/^GRUNDYD_[A-Z0-9_]+=/.test(line.trim()))
            p.push(`grundyd.env: a line that sets no GRUNDYD_* option: ${line}`);
    if (!/^ExecReload=.*kill -HUP \$MAINPID$/m.test(unit)) p.push("ExecReload does not send SIGHUP");
    if (grundyd && existsSync(grundyd) && !p.length) p.push(...grundydAccepts(vars));
    return p;
});
const analyze = spawnSync("systemd-analyze", ["--version"], { encoding: "utf8" });
if (analyze.error) {
    skip("systemd: systemd-analyze verify grundyd.service", "systemd-analyze is not installed");
} else {
    // verify needs the unit's ExecStart binary to exist: a scratch copy of
    // the unit names the built one (or /bin/true) instead of /usr/local/bin.
    const scratch = mkdtempSync(path.join(os.tmpdir(), "grundyd-unit-"));
    const unitCopy = path.join(scratch, "grundyd.service");
    const bin = grundyd && existsSync(grundyd) ? path.resolve(grundyd) : "/bin/true";
    writeFileSync(unitCopy, readFileSync(UNIT, "utf8").replaceAll("/usr/local/bin/grundyd", bin));
    const run = (argv) => {
        const p = spawnSync("systemd-analyze", argv, { encoding: "utf8", timeout: 60000, env: { ...process.env, SYSTEMD_LOG_COLOR: "0" } });
        return { status: p.status, out: `${p.stdout || ""}${p.stderr || ""}`.trim() };
    };
    try {
        check("systemd: systemd-analyze verify grundyd.service", () => {
            const r = run(["verify", "--man=no", unitCopy]);
            return r.status === 0 && !/grundyd\.service:/.test(r.out) ? [] : [`exit ${r.status}: ${r.out}`];
        });
        // Exposure 0 (locked down) to 10 (unprotected): at most 2.0.
        check("systemd: systemd-analyze security rates the unit's exposure 2.0 or less", () => {
            const r = run(["security", "--offline=true", "--threshold=20", unitCopy]);
            const level = (r.out.match(/Overall exposure level for grundyd\.service: ([0-9.]+)/) || [])[1];
            return r.status === 0 ? [] : [`exit ${r.status}, exposure ${level}: ${r.out.split("\n").filter((l) => l.includes("✗")).join("\n")}`];
        });
    } finally {
        rmSync(scratch, { recursive: true, force: true });
    }
}

writeFileSync(tapPath, tap.join("\n") + `\n1..${tap.length}\n`);
console.log(`1..${tap.length}`);
process.exit(failures ? 1 : 0);
