#!/usr/bin/env node
// @ts-check
// Fails when the viewer's TypeScript (or the checked JavaScript of its scripts) uses the `any` type or switches the
// type checker off. tsc's noImplicitAny catches the implicit kind; this catches the written one, which tsc allows.
// Comments are stripped first, so prose that says "any" does not count.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(fileURLToPath(new URL("..", import.meta.url)));
const roots = ["www/src", "tests/www", "tests/browser", "scripts"];
const extensions = [".ts", ".mts", ".mjs"];

/** `any` in a type position, and the comments that turn checking off. */
const FORBIDDEN = [
  { pattern: /(?::|\bas|<|,|\||&|=>|\bextends|\bkeyof)\s*any\b(?!\s*[-\w])/, what: "the any type" },
  { pattern: /\bany\s*(?:\[\]|>|\||&)/, what: "the any type" },
  { pattern: /@ts-(?:ignore|nocheck|expect-error)/, what: "a comment that silences the type checker" },
  { pattern: /@(?:type|param|returns?|typedef|template)\s*\{[^}]*\bany\b/, what: "the any type in a JSDoc type" },
];

/** @param {string} path @returns {string[]} */
function files(path) {
  if (statSync(path).isDirectory()) return readdirSync(path).flatMap((name) => files(join(path, name)));
  return extensions.some((extension) => path.endsWith(extension)) ? [path] : [];
}

/** Blanks out comments, keeping line numbers. @param {string} text @returns {string} */
function withoutComments(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "))
    .replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Directives and JSDoc types live in comments, so they are looked for in the original text. */
const IN_COMMENTS = [FORBIDDEN[2], FORBIDDEN[3]];

let problems = 0;
for (const root of roots) {
  for (const path of files(join(repo, root))) {
    const original = readFileSync(path, "utf8").split("\n");
    const stripped = withoutComments(readFileSync(path, "utf8")).split("\n");
    stripped.forEach((line, index) => {
      for (const rule of FORBIDDEN) {
        const source = IN_COMMENTS.includes(rule) ? (original[index] ?? "") : line;
        if (rule.pattern.test(source)) {
          console.error(`${relative(repo, path)}:${index + 1}: ${rule.what}: ${(original[index] ?? "").trim()}`);
          problems++;
        }
      }
    });
  }
}
if (problems > 0) {
  console.error(`check-no-any: ${problems} use(s) of any or of checker-silencing comments`);
  process.exit(1);
}
