#!/usr/bin/env python3
"""Every sentence core builds with msg("English template", ...) has a zh_CN text in core/i18n/zh_CN_*.inc,
and every catalog entry is still used (core/i18n/README.md).

usage: check_messages.py SOURCE_DIR
"""
import pathlib
import re
import sys

LIT = r'"(?:\\.|[^"\\\n])*"'
LITS = r'(?:' + LIT + r'\s*)+'


def c_string(lits: str) -> str:
    """The value of adjacent C++ string literals (UTF-8 source, the escapes core uses)."""
    out = bytearray()
    for m in re.finditer(LIT, lits):
        body = m.group(0)[1:-1]
        i = 0
        while i < len(body):
            ch = body[i]
            if ch != '\\':
                out += ch.encode('utf-8')
                i += 1
                continue
            nxt = body[i + 1]
            if nxt == 'x':
                j = i + 2
                while j < len(body) and body[j] in '0123456789abcdefABCDEF':
                    j += 1
                out.append(int(body[i + 2:j], 16))
                i = j
                continue
            out += {'n': b'\n', 't': b'\t', '"': b'"', '\\': b'\\', "'": b"'", '0': b'\0'}[nxt]
            i += 2
    return out.decode('utf-8')


def strip_comments(text: str) -> str:
    # Drop // comments that are not inside a literal, line by line (core has no literal with "//" before a msg).
    out = []
    for line in text.split('\n'):
        s = line
        pos = 0
        in_lit = False
        while pos < len(s):
            c = s[pos]
            if c == '\\' and in_lit:
                pos += 2
                continue
            if c == '"':
                in_lit = not in_lit
            elif not in_lit and s.startswith('//', pos):
                s = s[:pos]
                break
            pos += 1
        out.append(s)
    return '\n'.join(out)


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    core = root / 'core'
    used = {}
    call = re.compile(r'\bmsg\(\s*(' + LITS + r')')
    for path in sorted(list(core.rglob('*.cpp')) + list(core.rglob('*.h'))):
        if path.parent.name == 'i18n':
            continue
        text = strip_comments(path.read_text(encoding='utf-8'))
        for m in call.finditer(text):
            used.setdefault(c_string(m.group(1)), f'{path.relative_to(root)}:{text.count(chr(10), 0, m.start()) + 1}')
    entry = re.compile(r'\{\s*(' + LITS + r'),\s*(' + LITS + r')\}')
    catalog = {}
    problems = []
    for inc in sorted((core / 'i18n').glob('zh_CN_*.inc')):
        text = strip_comments(inc.read_text(encoding='utf-8'))
        for m in entry.finditer(text):
            en, zh = c_string(m.group(1)), c_string(m.group(2))
            if en in catalog:
                problems.append(f'{inc.name}: "{en}" is in the catalog twice')
            catalog[en] = zh
            if re.search(r'[A-Za-z]{3,} [A-Za-z]{3,} [A-Za-z]{3,}', re.sub(r'`[^`]*`|\{[^}]*\}', '', zh)):
                problems.append(f'{inc.name}: the Chinese of "{en}" still reads as English: "{zh}"')
    missing = [(where, en) for en, where in used.items() if en not in catalog]
    orphans = [en for en in catalog if en not in used]
    for where, en in sorted(missing):
        problems.append(f'{where}: no zh_CN text for "{en}"')
    for en in orphans:
        problems.append(f'catalog entry no source uses any more: "{en}"')
    print(f'{len(used)} message templates in core, {len(catalog)} zh_CN entries')
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
