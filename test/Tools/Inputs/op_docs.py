"""Checks that the dialects' ODS gives every definition its documentation.

`ninja streamhal-doc` generates the op, attribute, type and enum reference
from the `summary` and `description` fields of the TableGen files under
include/streamhal/Dialect/*/IR/. This script reads those files (without
mlir-tblgen, which the lit configuration does not provide: a small TableGen
reader that resolves `let`s through the classes defined in these files and
the few MLIR base classes named in `ROOTS`) and requires:

- every op: a summary, and a description with an ```mlir example naming
  the op (`hal.fence.join`);
- every attribute and type definition: a summary, and a description that
  spells its syntax (`#hal.buffer_constraints`, `!hal.fence`);
- every enum and dialect: a summary and a description;
- every interface: a description.

Prints one `error:` line per problem and exits 1 if there is any, else
prints `op docs: D dialects, N ops, M attributes and types, E enums, I
interfaces described`.

`--drop DEF.FIELD` (repeatable) removes the `let FIELD` (or field
definition) from the body of the class or def DEF before checking, so the
test can show that a missing description is reported.
"""
import argparse
import pathlib
import re
import sys

# ---------------------------------------------------------------------------
# Lexer
# ---------------------------------------------------------------------------

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<line_comment>//[^\n]*)
  | (?P<code>\[\{.*?\}\])
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<num>-?0x[0-9a-fA-F]+|-?0b[01]+|-?[0-9]+)
  | (?P<var>\$[A-Za-z_][A-Za-z0-9_]*)
  | (?P<bang>![A-Za-z_]+)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>\.\.\.|[<>{}\[\](),;:=#.?])
""", re.S | re.X)

PREPROCESSOR = re.compile(r"^[ \t]*#(ifndef|ifdef|define|else|endif)\b[^\n]*",
                          re.M)


class TdError(Exception):
    pass


class Token:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line

    def __repr__(self):
        return f"{self.kind}:{self.text!r}@{self.line}"


def strip_block_comments(text):
    """Blanks out (nested) /* */ comments outside strings and code blocks,
    keeping newlines so that line numbers stay right."""
    out, i, depth = [], 0, 0
    while i < len(text):
        if depth == 0 and text.startswith("[{", i):
            end = text.find("}]", i + 2)
            end = len(text) if end < 0 else end + 2
            out.append(text[i:end])
            i = end
        elif depth == 0 and text[i] == '"':
            match = re.compile(r'"(?:[^"\\\n]|\\.)*"').match(text, i)
            end = match.end() if match else i + 1
            out.append(text[i:end])
            i = end
        elif depth == 0 and text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            out.append(text[i:end])
            i = end
        elif text.startswith("/*", i):
            depth += 1
            out.append("  ")
            i += 2
        elif depth and text.startswith("*/", i):
            depth -= 1
            out.append("  ")
            i += 2
        else:
            out.append(text[i] if depth == 0 or text[i] == "\n" else " ")
            i += 1
    return "".join(out)


def tokenize(text, path):
    text = strip_block_comments(text)
    text = PREPROCESSOR.sub(lambda m: " " * len(m.group(0)), text)
    tokens, pos, line = [], 0, 1
    while pos < len(text):
        match = TOKEN.match(text, pos)
        if not match:
            raise TdError(f"{path}:{line}: cannot read {text[pos:pos + 20]!r}")
        kind = match.lastgroup
        value = match.group(0)
        if kind not in ("ws", "line_comment"):
            tokens.append(Token(kind, value, line))
        line += value.count("\n")
        pos = match.end()
    return tokens


# ---------------------------------------------------------------------------
# Parser: classes and defs with their template arguments and bodies
# ---------------------------------------------------------------------------

OPEN = {"<": ">", "(": ")", "[": "]", "{": "}"}
CLOSE = set(OPEN.values())


class Record:
    def __init__(self, name, path, line, is_class):
        self.name, self.path, self.line = name, path, line
        self.is_class = is_class
        self.params = []   # [(name, default tokens or None)]
        self.parents = []  # [(class name, [argument token lists])]
        self.body = []     # [(field name, value tokens or None)]


class Parser:
    def __init__(self, tokens, path):
        self.tokens, self.path, self.pos = tokens, path, 0

    def error(self, message):
        line = self.tokens[min(self.pos, len(self.tokens) - 1)].line
        return TdError(f"{self.path}:{line}: {message}")

    def peek(self, offset=0):
        index = self.pos + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def next(self):
        token = self.peek()
        if token is None:
            raise self.error("unexpected end of file")
        self.pos += 1
        return token

    def expect(self, text):
        token = self.next()
        if token.text != text:
            raise self.error(f"expected {text!r}, got {token.text!r}")
        return token

    def at(self, text):
        token = self.peek()
        return token is not None and token.text == text

    def value_tokens(self, stops):
        """Tokens up to (not including) one of `stops` at bracket depth 0."""
        out, stack = [], []
        while True:
            token = self.peek()
            if token is None:
                raise self.error("unexpected end of file in a value")
            if not stack and token.kind == "punct" and token.text in stops:
                return out
            if token.kind == "punct" and token.text in OPEN:
                stack.append(OPEN[token.text])
            elif token.kind == "punct" and token.text in CLOSE:
                if not stack or stack.pop() != token.text:
                    raise self.error(f"unbalanced {token.text!r}")
            out.append(self.next())

    def template_args(self):
        self.expect("<")
        args = []
        while not self.at(">"):
            args.append(self.value_tokens({",", ">"}))
            if self.at(","):
                self.next()
        self.expect(">")
        return args

    def parents(self, record):
        if not self.at(":"):
            return
        self.next()
        while True:
            name = self.next()
            if name.kind != "id":
                raise self.error(f"expected a class name, got {name.text!r}")
            args = self.template_args() if self.at("<") else []
            record.parents.append((name.text, args))
            if not self.at(","):
                return
            self.next()

    def body(self, record):
        if self.at(";"):
            self.next()
            return
        self.expect("{")
        while not self.at("}"):
            statement = self.value_tokens({";", "}"})
            if not self.at(";"):
                raise self.error("expected ';' in a record body")
            self.next()
            if not statement:
                continue
            words = [token.text for token in statement]
            if words[0] in ("assert", "dump"):
                continue
            if words[0] in ("defvar", "let", "field"):
                statement = statement[1:]
                words = words[1:]
            if "=" in words:
                split = words.index("=")
                name, value = statement[split - 1], statement[split + 1:]
            else:
                name, value = statement[-1], None
            if name.kind != "id":
                raise self.error(f"cannot read the statement {' '.join(words)}")
            record.body.append((name.text, value))
        self.expect("}")

    def parse(self):
        records = []
        while self.peek() is not None:
            keyword = self.next()
            if keyword.text == "include":
                if self.next().kind != "str":
                    raise self.error("expected a file name after include")
            elif keyword.text in ("class", "def"):
                name = self.next()
                if name.kind != "id":
                    raise self.error(f"expected a name after {keyword.text}")
                record = Record(name.text, self.path, keyword.line,
                                keyword.text == "class")
                if record.is_class and self.at("<"):
                    for param in self.template_args():
                        words = [token.text for token in param]
                        split = words.index("=") if "=" in words else len(words)
                        record.params.append(
                            (words[split - 1],
                             param[split + 1:] if split < len(words) else None))
                self.parents(record)
                self.body(record)
                records.append(record)
            elif keyword.text == "defvar":
                self.value_tokens({";"})
                self.next()
            else:
                # multiclass, defm, foreach, top-level let ... in: definitions
                # this reader would miss. Refuse rather than skip them.
                raise self.error(f"'{keyword.text}' is not supported by "
                                 f"{pathlib.Path(__file__).name}")
        return records


# ---------------------------------------------------------------------------
# Evaluation of the fields that matter
# ---------------------------------------------------------------------------

UNKNOWN = object()


class RecordRef:
    def __init__(self, name):
        self.name = name


def unquote(text):
    return bytes(text[1:-1], "utf-8").decode("unicode_escape")


def enum_info(summary_param):
    def apply(args, fields):
        fields.setdefault("__kind", "enum")
        fields["summary"] = args.get(summary_param, "")
        fields["description"] = ""
    return apply


def root(kind, **from_args):
    def apply(args, fields):
        fields.setdefault("__kind", kind)
        fields.setdefault("summary", "")
        fields.setdefault("description", "")
        for field, param in from_args.items():
            fields[field] = args.get(param, UNKNOWN)
    return apply


def enum_attr(args, fields, evaluator):
    fields.setdefault("__kind", "attr")
    info = args.get("enumInfo")
    fields["dialect"] = args.get("dialect", UNKNOWN)
    fields["mnemonic"] = args.get("name", "")
    for field in ("summary", "description"):
        fields[field] = (evaluator.field(info, field)
                         if isinstance(info, RecordRef) else UNKNOWN)


# The MLIR base classes a definition can reach, with their template
# parameters and what they set: only what the checks read.
ROOTS = {
    "Dialect": ([], root("dialect")),
    "Op": (["dialect", "mnemonic", "props"],
           root("op", opDialect="dialect", opName="mnemonic")),
    "AttrDef": (["dialect", "name", "traits", "baseCppClass"],
                root("attr", dialect="dialect")),
    "TypeDef": (["dialect", "name", "traits", "baseCppClass"],
                root("type", dialect="dialect")),
    "EnumAttr": (["dialect", "enumInfo", "name", "traits"], enum_attr),
    "OpInterface": (["name", "baseInterfaces"], root("interface")),
    "AttrInterface": (["name", "baseInterfaces"], root("interface")),
    "TypeInterface": (["name", "baseInterfaces"], root("interface")),
}
for width in (8, 16, 32, 64):
    for enum in ("EnumAttr", "BitEnumAttr"):
        ROOTS[f"I{width}{enum}"] = (["name", "summary", "cases"],
                                    enum_info("summary"))


class Evaluator:
    def __init__(self, records):
        self.classes = {r.name: r for r in records if r.is_class}
        self.defs = {r.name: r for r in records if not r.is_class}
        self.cache = {}

    def value(self, tokens, env):
        """Evaluates a value: strings, code, pastes, names, `name.field`."""
        if not tokens:
            return UNKNOWN
        parts, current = [], []
        for token in tokens:
            if token.text == "#":
                parts.append(current)
                current = []
            else:
                current.append(token)
        parts.append(current)
        if len(parts) > 1:
            values = [self.value(part, env) for part in parts]
            if all(isinstance(v, str) for v in values):
                return "".join(values)
            return UNKNOWN
        if len(tokens) == 1:
            token = tokens[0]
            if token.kind == "str":
                return unquote(token.text)
            if token.kind == "code":
                return token.text[2:-2]
            if token.kind == "id":
                if token.text in env:
                    return env[token.text]
                if token.text in self.defs:
                    return RecordRef(token.text)
            return UNKNOWN
        if (len(tokens) == 3 and tokens[1].text == "." and
                tokens[0].kind == "id" and tokens[2].kind == "id"):
            base = self.value(tokens[:1], env)
            if isinstance(base, RecordRef):
                return self.field(base, tokens[2].text)
        return UNKNOWN

    def field(self, ref, name):
        return self.fields(self.defs[ref.name]).get(name, UNKNOWN)

    def apply_class(self, name, arg_values, fields, where):
        if name in self.classes:
            cls = self.classes[name]
            if len(arg_values) > len(cls.params):
                raise TdError(f"{where}: {name} takes {len(cls.params)} "
                              f"arguments, got {len(arg_values)}")
            env = {}
            for index, (param, default) in enumerate(cls.params):
                if index < len(arg_values):
                    env[param] = arg_values[index]
                elif default is not None:
                    env[param] = self.value(default, {**env, **fields})
                else:
                    raise TdError(f"{where}: {name} needs argument {param}")
            for parent, args in cls.parents:
                scope = {**fields, **env}
                self.apply_class(parent, [self.value(a, scope) for a in args],
                                 fields, f"{cls.path}:{cls.line}")
            self.apply_body(cls, fields, env)
        elif name in ROOTS:
            params, apply = ROOTS[name]
            args = dict(zip(params, arg_values))
            if apply is enum_attr:
                enum_attr(args, fields, self)
            else:
                apply(args, fields)
        # Any other MLIR class contributes nothing the checks read.

    def apply_body(self, record, fields, env):
        for name, value in record.body:
            if value is not None:
                fields[name] = self.value(value, {**fields, **env})

    def fields(self, record):
        if record.name in self.cache:
            return self.cache[record.name]
        self.cache[record.name] = fields = {}
        for parent, args in record.parents:
            self.apply_class(parent, [self.value(a, fields) for a in args],
                             fields, f"{record.path}:{record.line}")
        self.apply_body(record, fields, {})
        return fields


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------

def names(text, spelled):
    """True when `text` contains `spelled` not followed by more of a name."""
    return re.search(re.escape(spelled) + r"(?![A-Za-z0-9_.])", text) is not None


def mlir_examples(text):
    return re.findall(r"```mlir\n(.*?)```", text, re.S)


def dialect_name(evaluator, value):
    if isinstance(value, RecordRef):
        name = evaluator.field(value, "name")
        if isinstance(name, str):
            return name
    return None


def check(root, drops):
    files = sorted((root / "include" / "streamhal" / "Dialect").glob(
        "*/IR/*.td"))
    if not files:
        raise TdError(f"no .td files under {root}/include/streamhal/Dialect")
    records = []
    for path in files:
        relative = path.relative_to(root)
        records += Parser(tokenize(path.read_text(), relative), relative).parse()
    by_name = {}
    for record in records:
        if record.name in by_name:
            raise TdError(f"{record.path}:{record.line}: {record.name} "
                          f"is defined twice")
        by_name[record.name] = record
    for drop in drops:
        name, _, field = drop.partition(".")
        if name not in by_name or not any(f == field
                                          for f, _ in by_name[name].body):
            raise TdError(f"--drop {drop}: no field {field} in {name}'s body")
        by_name[name].body = [(f, v) for f, v in by_name[name].body
                              if f != field]

    evaluator = Evaluator(records)
    problems = []
    counts = {"op": 0, "attr": 0, "type": 0, "enum": 0, "interface": 0,
              "dialect": 0}
    for record in records:
        if record.is_class:
            continue
        fields = evaluator.fields(record)
        kind = fields.get("__kind")
        if kind not in counts:
            continue
        counts[kind] += 1
        what = kind
        if kind == "op":
            dialect = dialect_name(evaluator, fields.get("opDialect"))
            mnemonic = fields.get("opName")
            if dialect is not None and isinstance(mnemonic, str):
                what = f"op {dialect}.{mnemonic}"
        where = f"{record.path}:{record.line}: {record.name}"
        summary = fields.get("summary", UNKNOWN)
        description = fields.get("description", UNKNOWN)

        def missing(field, value):
            if value is UNKNOWN:
                problems.append(f"{where}: cannot tell its {field} (set it "
                                f"with a literal `let {field}`)")
                return True
            if not value.strip():
                problems.append(f"{where} ({what}) has no {field}")
                return True
            return False

        if kind != "interface":
            missing("summary", summary)
        if missing("description", description):
            continue
        if kind == "op":
            dialect = dialect_name(evaluator, fields.get("opDialect"))
            mnemonic = fields.get("opName")
            if dialect is None or not isinstance(mnemonic, str):
                problems.append(f"{where}: cannot tell the op's name")
                continue
            op_name = f"{dialect}.{mnemonic}"
            if not any(names(example, op_name)
                       for example in mlir_examples(description)):
                problems.append(f"{where}: the description of {op_name} has "
                                f"no ```mlir example of it")
        elif kind in ("attr", "type"):
            dialect = dialect_name(evaluator, fields.get("dialect"))
            mnemonic = fields.get("mnemonic")
            if dialect is None or not isinstance(mnemonic, str):
                problems.append(f"{where}: cannot tell the {kind}'s mnemonic")
                continue
            spelled = ("#" if kind == "attr" else "!") + f"{dialect}.{mnemonic}"
            if not names(description, spelled):
                problems.append(f"{where}: the description does not spell "
                                f"{spelled}")
    return counts, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", type=pathlib.Path)
    parser.add_argument("--drop", action="append", default=[],
                        metavar="DEF.FIELD")
    args = parser.parse_args()
    try:
        counts, problems = check(args.root, args.drop)
    except TdError as error:
        print("error:", error)
        return 1
    for problem in problems:
        print("error:", problem)
    if problems:
        return 1
    print(f"op docs: {counts['dialect']} dialects, {counts['op']} ops, "
          f"{counts['attr'] + counts['type']} attributes and types, "
          f"{counts['enum']} enums, {counts['interface']} interfaces described")
    return 0


if __name__ == "__main__":
    sys.exit(main())
