// Grail War RPG — checking a published log's dice in the browser (WebCrypto, no server call).
// The same rules as `fuyuki war verify` (fuyuki.core.dice.verify_lines): every roll of a scope
// is numbered from 1 and chained to the roll before it; roll n named L under secret S is
//   mac = HMAC-SHA256(S, prev + ASCII(n) + 0x1E + UTF-8(L) [+ 0x1F + ASCII(k) for try k >= 1])
//   x = mac as a 256-bit number; the die is 1 + x mod faces unless x >= 2^256 - 2^256 mod faces.
"use strict";

const WarDice = (() => {
  const enc = new TextEncoder();
  const SPACE = 1n << 256n;
  const SHOWN = /\(1D(\d+)[^)]*\)\s*(?:＞|>)\s*(-?\d+)/;

  function concat(...parts) {
    const n = parts.reduce((a, p) => a + p.length, 0);
    const out = new Uint8Array(n);
    let i = 0;
    for (const p of parts) { out.set(p, i); i += p.length; }
    return out;
  }
  function hex(bytes) { return Array.from(bytes, b => b.toString(16).padStart(2, "0")).join(""); }
  function fromHex(h) {
    if (h.length % 2) throw new Error("odd hex");
    const out = new Uint8Array(h.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(h.substr(i * 2, 2), 16);
    return out;
  }
  async function hmac(key, msg) {
    const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await crypto.subtle.sign("HMAC", k, msg));
  }
  async function sha256(bytes) { return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))); }

  function checkLabel(label) {
    if (!label || /[\s\x00-\x1f\x7f]/.test(label)) throw new Error("bad label");
  }
  async function rollMac(secret, n, label, attempt, prev) {
    checkLabel(label);
    let msg = concat(prev, enc.encode(String(n)), Uint8Array.of(0x1e), enc.encode(label));
    if (attempt) msg = concat(msg, Uint8Array.of(0x1f), enc.encode(String(attempt)));
    return hmac(secret, msg);
  }
  async function rollValue(secret, n, label, faces, prev) {
    if (!(faces >= 1 && faces <= 1e6)) throw new Error("bad faces");
    const f = BigInt(faces), limit = SPACE - (SPACE % f);
    for (let attempt = 0; ; attempt++) {
      const x = BigInt("0x" + hex(await rollMac(secret, n, label, attempt, prev)));
      if (x < limit) return 1 + Number(x % f);
    }
  }
  function number(text) {                     // a plain ASCII decimal number
    if (!/^[0-9]+$/.test(text)) throw new Error("not a number");
    return parseInt(text, 10);
  }
  function integer(text) {
    if (!/^[+-]?[0-9]+$/.test(text)) throw new Error("not an integer");
    return parseInt(text, 10);
  }

  // lines: the log's lines. Returns {ok, commits, rolls, problems:[{code,line,params}],
  // marks: {lineNo: "ok"|"bad"|"pending"}} — line numbers from 1, as `fuyuki war verify`.
  async function verify(lines) {
    const out = { commits: 0, rolls: 0, problems: [], marks: {} };
    const scopes = new Map();
    let open = null;
    const problem = (code, line, params) => { out.problems.push({ code, line, params: params || {} }); out.marks[line] = "bad"; };
    for (let n = 1; n <= lines.length; n++) {
      const line = lines[n - 1].trim();
      if (!line.startsWith("#DICE")) continue;
      const parts = line.split(/\s+/);
      try {
        const kind = parts[1];
        if (kind === "COMMIT") {
          if (parts.length !== 4 || !/^[0-9a-f]+$/.test(parts[3].toLowerCase())) throw new Error(line);
          const scope = parts[2], sha = parts[3].toLowerCase();
          out.commits += 1;
          if (scopes.has(scope)) { problem("tamper.dup_commit", n, { scope, first: scopes.get(scope).line }); continue; }
          if (open !== null) problem("tamper.nested", n, { scope, open });
          scopes.set(scope, { sha, line: n, rolls: [], revealed: false });
          out.marks[n] = out.marks[n] || "pending";
          open = scope;
        } else if (kind === "ROLL") {
          if (parts.length !== 6) throw new Error(line);
          const num = number(parts[2]), label = parts[3], die = parts[4], value = integer(parts[5]);
          if (!die.toUpperCase().startsWith("1D")) throw new Error(die);
          const faces = number(die.slice(2));
          out.rolls += 1;
          if (open === null) { problem("no_commit", n, { label }); continue; }
          const sc = scopes.get(open);
          const want = sc.rolls.length + 1;
          if (num !== want) problem("tamper.number", n, { label, number: num, expected: want });
          if (sc.rolls.some(r => r.label === label)) problem("dup", n, { label });
          sc.rolls.push({ num, label, faces, value, line: n });
          out.marks[n] = out.marks[n] || "pending";
          if (n < lines.length) {
            const m = SHOWN.exec(lines[n]);
            if (m && parseInt(m[1], 10) === faces && parseInt(m[2], 10) !== value)
              problem("shown", n + 1, { label, value, shown: parseInt(m[2], 10) });
          }
        } else if (kind === "REVEAL") {
          if (parts.length !== 5 || !/^[0-9a-f]+$/.test(parts[3].toLowerCase())) throw new Error(line);
          const scope = parts[2], secret = fromHex(parts[3]), count = number(parts[4]);
          const sc = scopes.get(scope);
          if (!sc) { problem("bad_line", n); continue; }
          if (sc.revealed) { problem("tamper.dup_reveal", n, { scope }); continue; }
          sc.revealed = true;
          if (open === scope) open = null;
          let good = true;
          if (await sha256(secret) !== sc.sha) { problem("bad_commit", n, { scope }); good = false; }
          if (count !== sc.rolls.length) { problem("tamper.count", n, { scope, count, found: sc.rolls.length }); good = false; }
          let link = new Uint8Array(0);
          for (const r of sc.rolls) {
            let expected;
            try {
              expected = await rollValue(secret, r.num, r.label, r.faces, link);
              link = await rollMac(secret, r.num, r.label, 0, link);
            } catch (e) { problem("bad_line", r.line); continue; }
            if (expected !== r.value) problem("mismatch", r.line, { label: r.label, faces: r.faces, value: r.value, expected });
            else if (out.marks[r.line] !== "bad" && good) out.marks[r.line] = "ok";
          }
          if (good && out.marks[sc.line] !== "bad") out.marks[sc.line] = "ok";
          if (out.marks[n] !== "bad") out.marks[n] = good ? "ok" : "bad";
        } else {
          throw new Error(kind);
        }
      } catch (e) {
        problem("bad_line", n);
      }
    }
    for (const [scope, sc] of scopes) if (!sc.revealed) out.problems.push({ code: "no_reveal", line: sc.line, params: { scope, rolls: sc.rolls.length } });
    out.problems.sort((a, b) => a.line - b.line);
    out.ok = out.problems.length === 0 && out.commits > 0;
    out.failed = out.problems.filter(p => p.code !== "no_reveal");   // what is wrong already
    return out;
  }

  // The war's own commitment: SHA-256 of its secret, and each turn's secret derived from it
  // (fuyuki.core.dice.derive_secret): HMAC-SHA256(SHA-256("fuyuki-dice" 0x1F secret), "turn/N").
  async function verifyWar(sha, secret, turns) {
    if (await sha256(enc.encode(secret)) !== sha) return { ok: false, turn: null };
    const key = fromHex(await sha256(enc.encode("fuyuki-dice\x1f" + secret)));
    for (const [turn, s] of turns) {
      if (hex(await hmac(key, enc.encode(`turn/${turn}`))) !== s) return { ok: false, turn };
    }
    return { ok: true, turn: null };
  }

  return { verify, verifyWar, rollValue, sha256 };
})();
