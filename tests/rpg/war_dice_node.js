// Runs the page's dice check (war_dice.js) on logs read as JSON from stdin (tests/rpg/test_forgeries.py).
const fs = require("fs");
const src = fs.readFileSync(process.argv[2], "utf8");
const WarDice = new Function(src + "\nreturn WarDice;")();
(async () => {
  const logs = JSON.parse(fs.readFileSync(0, "utf8"));
  const out = [];
  for (const text of logs) {
    const r = await WarDice.verifyText(text);
    out.push({ ok: r.ok, commits: r.commits, rolls: r.rolls, problems: r.problems.map(p => [p.code, p.line]), pending: r.pending.map(p => p.code) });
  }
  process.stdout.write(JSON.stringify(out));
})();
