// The floor of a client command (`scanctl clock show --json`) on Node: one GET over node:http to
// SCANCTL_BASE_URL, its JSON parsed and printed, in a bare script. No scanctl code. bench/cases/executable.js.
'use strict';
const { get } = require('node:http');

get(`${process.env.SCANCTL_BASE_URL}/_scanctl/clock`, { headers: { accept: 'application/json' } }, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => (body += chunk));
  res.on('end', () => {
    if (res.statusCode !== 200) process.exitCode = 1;
    process.stdout.write(`${JSON.stringify(JSON.parse(body))}\n`);
  });
});
