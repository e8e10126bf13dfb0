"""Read the facts of one document (functions, tokens, errors, tables...) from its blocks.

The walk keeps a little context, as a reader would: which template section it
is in, which function is being described, and whose error list the next
bullets belong to. Everything it knows about wording is in `phrases`.
"""

from __future__ import annotations

import re

from generator.base import integers, phrases
from generator.base.c_decl import CFunction
from generator.base.diagnostics import Location
from generator.base.errors import InputError
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.extraction.error_lists import ErrorReader
from generator.extraction.extension_name import ExtensionNamer
from generator.extraction.facts import (
    DeclaredBuiltin,
    DeclaredFunction,
    DeclaredType,
    ErrorCopy,
    ErrorFact,
    Mention,
    NamedFunction,
    ParamDoc,
    Remark,
    ReturnsClaim,
    Role,
    SourceFacts,
    TableFact,
    TableRowFact,
    TokenFact,
    TokenGroupFact,
)
from generator.extraction.group_sentences import token_group
from generator.extraction.page import (
    WORD,
    has_summary,
    latest_version,
    page_function,
    page_parameters,
    sole_function,
    subject,
)
from generator.frontends.document import (
    LOST_PARAMETER_NAMES,
    REFERENCE,
    Block,
    Definition,
    Document,
    Heading,
    ListItem,
    Paragraph,
    Prototype,
    Row,
    Table,
    TokenDef,
    Typedef,
)

#: A whole word not already marked `<name>` (possessive: a word followed by `>` is not tried shorter).
_PLAIN_WORD = re.compile(r"(?<![<\w])\w++(?![\w>])")
_LEADING_REFERENCES = re.compile(r"^((?:<\w+>)(?:\s*(?:,|and|,\s*and)\s*<\w+>)*)\s")


def extract(document: Document, knowledge: Knowledge) -> SourceFacts:
    walk = _Walk(document, knowledge)
    for block in document.blocks:
        walk.visit(block)
    walk.finish()
    return walk.facts


class _Walk:
    def __init__(self, document: Document, knowledge: Knowledge) -> None:
        self.document = document
        self.knowledge = knowledge
        self.facts = SourceFacts(document.path, document.format, None, None, lost=document.lost, remarks=[
            Remark(o.where or document.locate(o.pos), o.kind, o.message, o.note) for o in document.remarks])
        self.facts.files = tuple(dict.fromkeys(origin.path for origin in document.origins))
        self.facts.has_summary = has_summary(document)
        self.facts.subject = None if self.facts.has_summary else subject(document, knowledge)
        # parameter names the format writes plain, never plain words like "event"
        self.plain_names = {name for name in page_parameters(document, self.facts.subject) if "_" in name}
        self.section = "preamble"
        self.section_level = 0
        self.field = ""
        self.page_function = page_function(document, self.facts.subject)
        self.sole_function = sole_function(document)
        self.current: CFunction | None = self.page_function
        self.errors = ErrorReader(self.facts, knowledge)
        self.group: TokenGroupFact | None = None
        self.group_errors: list[tuple[list[str], str]] = []  # the error group's (functions, condition) clauses
        self.group_heads = False  # the group's sentence ends in a full stop: the sentences after it are its own
        self.unread_intro: Location | None = None  # a sentence before tokens that opens no group
        self.open_doc: ParamDoc | None = None
        self.open_more: list[str] = []  # sentences that go on the open description, joined when it closes
        self.namer = ExtensionNamer(self.facts, knowledge)
        self.revision_date: str | None = None  # of the version history's latest item

    # -- the walk -----------------------------------------------------------

    def visit(self, block: Block) -> None:
        if isinstance(block, Heading):
            self.heading(block)
        elif isinstance(block, Paragraph):
            self.paragraph(block)
        elif isinstance(block, ListItem):
            self.list_item(block)
        elif isinstance(block, Definition):
            self.definition(block)
        elif isinstance(block, Prototype):
            self.prototype(block)
        elif isinstance(block, Typedef):
            self.facts.types.append(DeclaredType(block.typedef, self.where(block)))
        elif isinstance(block, TokenDef):
            self.token(block)
        else:
            self.table(block)

    def heading(self, block: Heading) -> None:
        if phrases.ERRORS_TITLE.match(block.title) and block.level > 0:  # "Errors": the described function's list
            # (a document's own title "Error Codes", level 0, is a book's appendix of codes: no function's list)
            self.errors_section(block)
            return
        kind = phrases.section_kind(block.title)
        if kind is not None:
            self.section, self.section_level = kind, block.level
        elif block.level <= self.section_level or self.section == "preamble":
            self.section, self.section_level = "body", block.level
        self.field = block.title
        if block.level <= 1:
            self.namer.title(block.anchor or block.title, self.where(block))
        self.current = self.page_function  # on a reference page, every section describes its function
        self.errors.reset()
        if named := phrases.ERRORS_OF.search(block.title):  # the section adds to these functions' lists
            self.errors.owners = tuple(phrases.split_names(named["functions"]))
        self.set_group(None)
        self.close_doc()

    def errors_section(self, block: Heading | Paragraph) -> None:
        """An "Errors" heading (or a line alone saying so): the conditions that follow are the described function's."""
        described = self.current.name if self.current else self.summarised()
        self.close_doc()
        self.errors.reset()
        if described is None:
            self.facts.remarks.append(Remark(self.where(block), Kind.UNOWNED_CONDITION, "this list of errors follows "
                                             "no function's description; its conditions are not kept"))
            return
        self.errors.owners = (described,)

    def summarised(self) -> str | None:
        """In the summary of a text that declares one function, that function."""
        return self.sole_function if self.section == "summary" else None

    def paragraph(self, block: Paragraph) -> None:
        text = self.marked(block.text)
        where = self.where(block)
        if self.section in ("summary", "body") and self.named_functions(text, where):
            return
        if block.code and self.section in ("summary", "tokens", "types") and not (
                self.section == "tokens" and phrases.NAMES_ONLY.match(text)):
            self.facts.remarks.append(Remark(where, Kind.UNREAD_LISTING, "this listing holds neither C "
                                             "declarations nor token definitions (NAME value) that can be read; "
                                             "what it declares is not in the IR"))
        elif block.code and self.section == "aside":
            return  # sample code: its names are the example's variables, not mentions of the API
        self.mentions(text, where)
        self.namer.sentence(text, where, self.section)
        if self.section in ("name", "version", "field"):
            said = self.facts.metadata.get(self.field)  # a field of several paragraphs keeps them all
            self.facts.metadata[self.field] = text if said is None else f"{said}\n\n{text}"
            if self.section == "version" and self.facts.revision is None:
                self.facts.revision, self.facts.revision_where = text, where
            return
        # a summary of one function may hold its whole description, conditions included
        described = self.current.name if self.current else self.summarised()
        if self.section not in ("tokens", "aside") and phrases.ERRORS_TITLE.match(text):
            self.errors_section(block)
            return
        if self.section not in ("tokens", "aside") and self.errors.paragraph(text, where, described):
            self.close_doc()
            return
        self.errors.end_list()
        if self.section == "tokens":
            names = WORD.findall(text) if phrases.NAMES_ONLY.match(text) else []
            if names and all(self.knowledge.is_constant_name(n) for n in names):
                for name in names:  # listed without values: kept without one
                    self.add_token(TokenFact(name, "", None, self.group, where))
                return
            group = token_group(text, where)
            if group is None and self.group is not None and self.group_heads:
                return  # "Accepted as the <p> parameter of f." then "Return the topology:": one more of the group
            self.set_group(group, heads=group is not None and text.rstrip().endswith("."))
            self.unread_intro = where if group is None else None
            return
        if self.section == "aside":
            return
        if copy := phrases.SAME_ERRORS.match(text):
            self.facts.copies.append(ErrorCopy(copy["target"], copy["source"], where))
            return
        if self.errors.opens(text, where):
            self.close_doc()
            return
        returns = self.returns_sentence(text, where)
        self.errors.sentences(text, where, described)
        if returns:
            self.close_doc()
            return
        self.parameter_doc(text, where)

    def named_functions(self, text: str, where: Location) -> bool:
        """A line of function names alone (in the summary, or in a body that lists what it adds): new functions,
        unless core OpenCL's, whose prototypes the text does not give."""
        names = WORD.findall(text)
        if not names or WORD.sub("", text).strip(" ,.*`") or not all(
                self.knowledge.is_function_name(n) and n not in self.knowledge.core_functions for n in names):
            return False
        self.facts.named_functions += [NamedFunction(name, where) for name in names]
        return True

    def list_item(self, block: ListItem) -> None:
        text = self.marked(block.text)
        where = self.where(block)
        if self.section == "summary" and self.named_functions(text, where):
            return
        if self.section == "tokens" and self.enum_item(text, where):
            return
        if self.section == "version" and (revision := phrases.REVISION_ITEM.match(text)):
            if self.revision_date is None or revision["date"] > self.revision_date:  # the latest is the revision
                self.revision_date = revision["date"]
                self.facts.revision, self.facts.revision_where = text, where
            return
        self.mentions(text, where, self.errors.owners[0] if self.errors.owners else None)
        self.close_doc()
        leading = _LEADING_REFERENCES.match(text)
        if leading and self.current is not None and self.section == "body" and not self.errors.owners:
            # a function's parameters described as a list (`* _devices_ returns a list of ...`), before its errors
            self.facts.param_docs.append(ParamDoc(self.current.name, tuple(REFERENCE.findall(leading[1])), text,
                                                  where))
            return
        if self.section != "aside":
            self.errors.item(text, where, self.current.name if self.current and self.section == "body" else None)

    def enum_item(self, text: str, where: Location) -> bool:
        """A list of new enums by type (the book's appendix pages): an item naming a type, or the error codes,
        heads the tokens its sub-items name."""
        name = text.strip()
        if self.knowledge.is_constant_name(name):
            self.add_token(TokenFact(name, "", None, self.group, where))
            return True
        if phrases.ERROR_CODES_ITEM.match(name):
            self.set_group(TokenGroupFact(name, "error", (), None, None, where))
            return True
        if WORD.fullmatch(name) and self.knowledge.is_type_name(name):
            self.set_group(TokenGroupFact(name, "accepted", (), None, None, where, c_type=name))
            return True
        return False

    def definition(self, block: Definition) -> None:
        text = self.marked(block.text)
        where = self.where(block)
        self.mentions(text, where)
        if self.current is not None:
            self.facts.param_docs.append(ParamDoc(self.current.name, block.terms, text, where))

    def prototype(self, block: Prototype) -> None:
        if block.function.kernel:  # the kernel language's, not the host API's
            if self.section != "aside":
                self.facts.builtins.append(DeclaredBuiltin(block.function, self.where(block)))
            self.close_doc()
            return
        role: Role = {"summary": "summary", "aside": "aside"}.get(self.section, "body")  # type: ignore[assignment]
        self.facts.functions.append(DeclaredFunction(block.function, self.where(block), role))
        self.close_doc()
        self.errors.reset()
        if role == "body":
            self.current = block.function

    def token(self, block: TokenDef) -> None:
        where = self.where(block)
        try:
            value = integers.value(block.literal)
        except integers.LiteralError as error:
            raise InputError(where.path, where.pos, f"{block.name} = {error}") from None
        if self.section == "aside":  # sample code's `#define`s are the example's, not the extension's
            self.facts.remarks.append(Remark(where, Kind.SAMPLE_TOKEN, f"{block.name} is defined in a part of the text "
                                             "that only discusses or shows examples; it is not taken as a token"))
            return
        self.add_token(TokenFact(block.name, block.literal, value, self.group, where))

    def add_token(self, fact: TokenFact) -> None:
        if fact.group is None and self.unread_intro is not None:
            self.facts.remarks.append(Remark(self.unread_intro, Kind.UNGROUPED_TOKENS, "this sentence is not read as "
                                             "saying what the tokens after it are accepted by or returned from: "
                                             "they are kept in no group", True))
            self.unread_intro = None
        self.facts.tokens.append(fact)
        self.errors.defined(fact)
        if self.group is not None:
            for functions, condition in self.group_errors:
                for function in functions:
                    self.facts.errors.append(ErrorFact(function, fact.name, condition, self.group.where, "token"))

    def table(self, block: Table) -> None:
        rows = []
        for row in block.rows:
            cells = tuple(self.marked(cell) for cell in row.cells)
            for cell in cells:
                self.mentions(cell, self.where(row))
            rows.append(TableRowFact(cells, self.where(row)))
        if self.section == "version" and self.facts.revision is None:
            self.facts.revision, self.facts.revision_where = latest_version(block), self.where(block)
        elif self.section != "aside":
            self.facts.tables.append(TableFact(block.header, tuple(rows), self.where(block)))
        self.errors.end_list()

    # -- sentences ----------------------------------------------------------

    def set_group(self, group: TokenGroupFact | None, *, heads: bool = False) -> None:
        """The group the next tokens join; an error group's clauses are read once, not once per token."""
        self.group, self.group_heads, self.unread_intro = group, heads, None
        self.group_errors = [
            (phrases.split_names(clause["functions"]), clause["condition"].strip())
            for clause in phrases.RETURNED_BY_CLAUSE.finditer(group.sentence)
        ] if group is not None and group.kind == "error" else []

    def returns_sentence(self, text: str, where: Location) -> bool:
        """A "f returns ..." sentence: it names whose error list follows."""
        for match in phrases.RETURNS.finditer(text):
            named = match["function"]
            described = self.current.name if self.current else None
            if described is None and match.start() >= 5 and phrases.THIS_FUNCTION.match(text, match.start() - 5):
                named = self.last_function(text[:match.start()]) or named  # "... f(). This function returns"
            if named is not None and not self.knowledge.is_function_name(named):
                continue
            if named is None or named == described:
                owner = described
            elif described is not None and self.section != "preamble":
                self.facts.claims.append(ReturnsClaim(named, described, where))
                owner = described
            else:
                owner = named
            self.errors.owners = (owner,) if owner else ()
            if named is not None and owner == named:
                self.errors.owners = (*self.co_subjects(text[max(0, match.start() - 400):match.start()]), named)
            return owner is not None
        return False

    def last_function(self, before: str) -> str | None:
        """The function a sentence names last, which a following "This function" stands for."""
        return next((w for w in reversed(WORD.findall(before)) if self.knowledge.is_function_name(w)), None)

    def co_subjects(self, before: str) -> list[str]:
        """The functions named with a subject ("f and g will return"): they share its conditions."""
        found = phrases.CO_SUBJECTS.search(before)
        names = phrases.split_names(found["functions"]) if found else []
        return [name for name in names if self.knowledge.is_function_name(name)]

    def parameter_doc(self, text: str, where: Location) -> None:
        """A sentence about a parameter: `<p> is ...`; in texts that lost names, a sentence with no subject."""
        if self.current is None or self.section not in ("body", "preamble"):
            return
        leading = _LEADING_REFERENCES.match(text)
        if leading:
            self.close_doc()
            names = tuple(REFERENCE.findall(leading.group(1)))
            self.facts.param_docs.append(ParamDoc(self.current.name, names, text, where))
        elif LOST_PARAMETER_NAMES in self.document.lost and text[:1].islower():
            self.close_doc()
            self.open_doc = ParamDoc(self.current.name, (), text, where)
        elif self.open_doc is not None:
            self.open_more.append(text)

    def close_doc(self) -> None:
        if self.open_doc is not None:
            doc = self.open_doc
            if self.open_more:
                doc = ParamDoc(doc.function, (), " ".join([doc.text, *self.open_more]), doc.where)
            self.facts.param_docs.append(doc)
            self.open_doc = None
            self.open_more = []

    def mentions(self, text: str, where: Location, function: str | None = None) -> None:
        described = function or (self.current.name if self.current else None)
        functions = []
        for word in WORD.findall(text):
            if self.knowledge.is_function_name(word):
                functions.append(word)
                self.facts.mentions.append(Mention(word, "function", where, text, described))
            elif self.knowledge.is_constant_name(word):
                self.facts.mentions.append(Mention(word, "constant", where, text, described,
                                                   self.section == "tokens"))
        self.errors.saw(functions, where)

    def finish(self) -> None:
        self.errors.unanswered()
        self.namer.finish(self.document)

    # -- helpers ------------------------------------------------------------

    def marked(self, text: str) -> str:
        """Text with parameter names written `<name>`, also where the format writes them plain.

        Each word is looked up among the names (a pattern of all the names would try each at every place).
        """
        if self.document.marks_parameters or not self.plain_names:
            return text
        return _PLAIN_WORD.sub(lambda m: f"<{m[0]}>" if m[0] in self.plain_names else m[0], text)

    def where(self, block: Block | Row) -> Location:
        return self.document.locate(block.pos)
