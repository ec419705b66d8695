// Grail War RPG — checking a published log's dice in the browser (WebCrypto, no server call).
// The same rules as `fuyuki war verify`'s dice check (fuyuki.core.dice.verify_lines, log
// format 2; the function is documented there and in docs/rpg.md): the war commitment, the GM's
// hash chain, the parties' contributions, every roll chained to the one before, each turn's
// seal, the record's hash; invisible characters and look-alike digits refused.
"use strict";

const WarDice = (() => {
  const enc = new TextEncoder();
  const SPACE = 1n << 256n;

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
  function rollBody(link, n, label, faces) {
    checkLabel(label);
    if (!(faces >= 1 && faces <= 1e6)) throw new Error("bad faces");
    return concat(link, enc.encode(String(n)), Uint8Array.of(0x1e), enc.encode(label), Uint8Array.of(0x1e), enc.encode(String(faces)));
  }
  async function rollMac(key, n, label, faces, attempt, link) {
    let msg = concat(enc.encode("R"), rollBody(link, n, label, faces));
    if (attempt) msg = concat(msg, Uint8Array.of(0x1f), enc.encode(String(attempt)));
    return hmac(key, msg);
  }
  async function rollValue(key, n, label, faces, link) {
    const f = BigInt(faces), limit = SPACE - (SPACE % f);
    for (let attempt = 0; ; attempt++) {
      const x = BigInt("0x" + hex(await rollMac(key, n, label, faces, attempt, link)));
      if (x < limit) return 1 + Number(x % f);
    }
  }
  async function rollLink(key, n, label, faces, value, link) {
    return hmac(key, concat(enc.encode("L"), rollBody(link, n, label, faces), Uint8Array.of(0x1e), enc.encode(String(value))));
  }
  async function sha(bytes) { return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)); }
  async function turnKey(warId, turn, prevSeal, secret, reveals) {
    const parts = [enc.encode("fuyuki-dice/2/turn\x1e"), warId, Uint8Array.of(0x1e), enc.encode(String(turn)), Uint8Array.of(0x1e), prevSeal, Uint8Array.of(0x1e), secret];
    for (const [party, r] of reveals) parts.push(Uint8Array.of(0x1e), enc.encode(party), Uint8Array.of(0x1f), r);
    return sha(concat(...parts));
  }
  function same(a, b) { return a.length === b.length && a.every((x, i) => x === b[i]); }

  // The same reading of a log as fuyuki.core.dice (log_lines, bad_char, verify_lines).
  const FREE = ["【GM】", "[GM] ", "［コミュ］", "[comm] "];
  const SHOWN = /\(1D([0-9]+)(?:<=([0-9]+))?\)\s*(?:＞|>)\s*([0-9]+)(?:\s*(?:＞|>)\s*(成功|失敗|Success|Failure))?/;
  const HEX64 = /^[0-9a-f]{64}$/, B64 = /^[A-Za-z0-9+/]+={0,2}$/;
  const BAD = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}]|(?![ \u3000])\p{Zs}/u, DIGIT = /(?![0-9])\p{Nd}/u;
  function logLines(text) {
    if (text.startsWith("\ufeff")) text = text.slice(1);
    return text.replace(/\r\n/g, "\n").split("\n");
  }
  function badChar(line, free) {
    const m = BAD.exec(line) || (free ? null : DIGIT.exec(line));
    if (!m) return null;
    // the first such character in the line (as Python scans it)
    const a = BAD.exec(line), b = free ? null : DIGIT.exec(line);
    const first = !b ? a : !a ? b : (a.index <= b.index ? a : b);
    return "U+" + first[0].codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
  }
  function num(text, lo = 0, hi = 1e9) {
    if (!/^[0-9]+$/.test(text) || (text.length > 1 && text[0] === "0")) throw new Error("num");
    const v = parseInt(text, 10);
    if (v < lo || v > hi) throw new Error("range");
    return v;
  }
  function hex64(text) { if (!HEX64.test(text)) throw new Error("hex"); return fromHex(text); }
  class Stop extends Error {}

  // lines: the log's lines. Returns {ok, commits, rolls, problems:[{code,line,params}],
  // pending:[...], failed, marks: {lineNo: "ok"|"bad"|"pending"}} — as `fuyuki war verify`'s
  // dice check (its replay of the record runs in Python only).
  async function verify(lines) {
    const out = { commits: 0, rolls: 0, problems: [], pending: [], marks: {}, record: false };
    const st = { turn: null, last: 0, prior: null, seal: null, ended: false, record: [], text: null, warId: null, head: null };
    const problem = (code, line, params) => { out.problems.push({ code, line, params: params || {} }); out.marks[line] = "bad"; };
    const stop = (code, line, params) => { problem(code, line, params); throw new Stop(); };
    try {
      for (let n = 1; n <= lines.length; n++) {
        const line = lines[n - 1].replace(/ +$/, "");
        if (!line) continue;
        const free = FREE.some(f => line.startsWith(f));
        const c = badChar(line, free);
        if (c) stop("char", n, { char: c });
        const machine = line.startsWith("#DICE") || line.startsWith("#WAR");
        if (st.ended && !free) stop("after_end", n);
        if (free) continue;
        if (!machine) {
          const roll = st.text; st.text = null;
          if (roll) checkShown(line, n, roll, problem);
          continue;
        }
        st.text = null;
        await machineLine(line, n, out, st, stop, problem);
      }
      if (st.head === null) { if (!out.problems.length) out.problems.push({ code: "empty", line: 0, params: {} }); }
      else if (st.turn) { out.rolls += st.turn.rolls.length; out.pending.push({ code: "no_reveal", line: st.turn.line, params: { scope: st.turn.scope, rolls: st.turn.rolls.length } }); }
      else if (!st.ended) out.pending.push({ code: "no_record", line: lines.length, params: {} });
    } catch (e) { if (!(e instanceof Stop)) throw e; }
    out.problems.sort((a, b) => a.line - b.line);
    out.ok = !out.problems.length && !out.pending.length && out.commits > 0;
    out.failed = out.problems;
    return out;
  }

  function checkShown(line, n, roll, problem) {
    const m = SHOWN.exec(line);
    if (!m || parseInt(m[1], 10) !== roll.faces) return;
    const shown = parseInt(m[3], 10);
    if (shown !== roll.value) problem("shown", n, { label: roll.label, value: roll.value, shown });
    else if (m[2] !== undefined && m[4] !== undefined) {
      const rate = parseInt(m[2], 10);
      if ((m[4] === "成功" || m[4] === "Success") !== (roll.value <= rate))
        problem("outcome", n, { label: roll.label, value: roll.value, rate, result: m[4] });
    }
  }

  async function machineLine(line, n, out, st, stop, problem) {
    const parts = line.split(" ");
    if (parts.includes("") || parts.length < 2) stop("bad_line", n);
    const kind = parts[0] + " " + parts[1];
    try {
      if (st.head === null) {
        if (kind !== "#DICE WAR") stop("format", n, { version: parts[0] === "#DICE" ? 1 : "?" });
        if (parts.length !== 7) stop("bad_line", n);
        if (parts[2] !== "2") stop("format", n, { version: parts[2] });
        const w = hex64(parts[3]); num(parts[4], 1, 999); hex64(parts[5]); hex64(parts[6]);
        st.head = { line: n, turns: num(parts[4], 1, 999) };
        st.warId = await sha(enc.encode(parts.slice(0, 5).join(" ")));
        st.prior = w; st.seal = st.warId;
        out.marks[n] = "pending";
        return;
      }
      const turn = st.turn;
      if (kind === "#DICE COMMIT") {
        if (parts.length !== 4) stop("bad_line", n);
        const want = st.last + 1;
        if (turn) stop("tamper.nested", n, { scope: parts[2], open: turn.scope });
        if (parts[2] !== `t${want}` || want > st.head.turns) stop("tamper.scope", n, { scope: parts[2], expected: `t${want}` });
        if (!same(hex64(parts[3]), st.prior)) stop("tamper.chain", n, { scope: parts[2] });
        st.turn = { n: want, scope: parts[2], line: n, prior: st.prior, parties: [], opened: 0, rolls: [], lines: [n] };
        out.marks[n] = "pending";
      } else if (kind === "#DICE PARTY" || kind === "#DICE OPEN") {
        if (parts.length !== 5) stop("bad_line", n);
        if (!turn || parts[2] !== turn.scope) stop("tamper.order", n, { scope: parts[2] });
        const name = parts[3];
        if (kind === "#DICE PARTY") {
          if (turn.opened || turn.parties.some(p => p.name === name)) stop("tamper.order", n, { scope: parts[2] });
          checkLabel(name); hex64(parts[4]);
          turn.parties.push({ name, commit: parts[4], reveal: null });
        } else {
          if (turn.opened >= turn.parties.length || turn.parties[turn.opened].name !== name || turn.rolls.length) stop("tamper.order", n, { scope: parts[2] });
          const reveal = parts[4] === "-" ? null : hex64(parts[4]);
          if (reveal && hex(await sha(reveal)) !== turn.parties[turn.opened].commit) stop("party", n, { scope: turn.scope, party: name });
          turn.parties[turn.opened].reveal = reveal;
          turn.opened += 1;
        }
        turn.lines.push(n); out.marks[n] = "pending";
      } else if (kind === "#DICE ROLL") {
        if (parts.length !== 6) stop("bad_line", n);
        const num_ = num(parts[2], 1), label = parts[3], die = parts[4];
        if (!die.startsWith("1D")) stop("bad_line", n);
        const faces = num(die.slice(2), 1, 1e6), value = num(parts[5], 1);
        checkLabel(label);
        if (!turn) stop("no_commit", n, { label });
        if (turn.opened !== turn.parties.length) stop("tamper.order", n, { scope: turn.scope });
        if (num_ !== turn.rolls.length + 1) stop("tamper.number", n, { label, number: num_, expected: turn.rolls.length + 1 });
        if (!label.startsWith(turn.scope + "/")) stop("tamper.label", n, { label, scope: turn.scope });
        if (turn.rolls.some(r => r.label === label)) stop("dup", n, { label });
        if (value > faces) stop("mismatch", n, { label, faces, value, expected: `1..${faces}` });
        const roll = { num: num_, label, faces, value, line: n };
        turn.rolls.push(roll); st.text = roll;
        out.marks[n] = "pending";
      } else if (kind === "#DICE REVEAL") {
        if (parts.length !== 6) stop("bad_line", n);
        if (!turn || parts[2] !== turn.scope || turn.opened !== turn.parties.length) stop("tamper.order", n, { scope: parts[2] });
        const secret = hex64(parts[3]), count = num(parts[4]), seal = hex64(parts[5]);
        if (!same(await sha(secret), turn.prior)) stop("bad_commit", n, { scope: turn.scope });
        if (count !== turn.rolls.length) stop("tamper.count", n, { scope: turn.scope, count, found: turn.rolls.length });
        const key = await turnKey(st.warId, turn.n, st.seal, secret, turn.parties.filter(p => p.reveal).map(p => [p.name, p.reveal]));
        let link = new Uint8Array(0);
        for (const r of turn.rolls) {
          const expected = await rollValue(key, r.num, r.label, r.faces, link);
          if (expected !== r.value) problem("mismatch", r.line, { label: r.label, faces: r.faces, value: r.value, expected });
          else out.marks[r.line] = "ok";
          link = await rollLink(key, r.num, r.label, r.faces, expected, link);
        }
        const mine = await hmac(key, concat(enc.encode("E"), link, enc.encode(String(count))));
        if (!same(mine, seal)) stop("seal", n, { scope: turn.scope });
        for (const k of turn.lines) if (out.marks[k] !== "bad") out.marks[k] = "ok";
        out.marks[n] = "ok";
        out.commits += 1; out.rolls += count;
        st.turn = null; st.last = turn.n; st.prior = secret; st.seal = seal;
      } else if (kind === "#WAR RECORD") {
        if (parts.length !== 3 || !B64.test(parts[2]) || turn) stop("bad_line", n);
        st.record.push(parts[2]);
      } else if (kind === "#DICE END") {
        if (parts.length !== 5) stop("bad_line", n);
        if (turn || num(parts[2]) !== st.last) stop("tamper.end", n, { turns: parts[2], expected: st.last });
        if (!same(hex64(parts[3]), st.seal)) stop("seal", n, { scope: "end" });
        let record;
        try { record = Uint8Array.from(atob(st.record.join("")), ch => ch.charCodeAt(0)); } catch (e) { stop("record", n); }
        if (hex(await sha(record)) !== parts[4]) stop("record", n);
        out.record = true; out.marks[n] = "ok"; st.ended = true;
        if (out.marks[st.head.line] !== "bad") out.marks[st.head.line] = "ok";
      } else {
        stop("bad_line", n);
      }
    } catch (e) {
      if (e instanceof Stop) throw e;
      stop("bad_line", n);
    }
  }

  return { verify, verifyText: text => verify(logLines(text)), logLines, rollValue, sha256 };
})();
