"""Words the engines say to players: English, but translatable by the layer that shows them.

An engine knows no languages. Where it says something a player reads (a refusal, a narration line, an end reason,
a picker prompt) it writes `Text("{square} is not your piece", square="c4")`: a str that *is* the English sentence,
so everything that only needs English keeps working, and that also keeps its template and parameters, so the
presenters can look the template up in a language's catalogue and fill it in (`bot.i18n.t` does). A parameter
that is itself a `Text` (a side's name, a piece's name) is translated too; notation never is.

`python -m bot.extract_texts` collects every `Text("…")` literal into the catalogues (with its `plural=`), as it
does `t`, `tn` and `N_`.
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


class Text(str):
    """An English text that remembers its `template` and `params` (see the module's docstring)."""

    template: str
    plural: str | None  # the English for a `count` other than 1; None for a text without a count
    params: dict[str, Any]

    def __new__(cls, template: str, /, plural: str | None = None, **params: Any) -> Text:
        if plural is not None and "count" not in params:
            raise TypeError(f"a text with a plural needs its count: {template!r}")
        english = english_form(template, plural, params.get("count"))
        made = super().__new__(cls, english.format(**params) if params else english)
        made.template, made.plural, made.params = template, plural, params
        return made

    def __reduce__(self) -> tuple:  # pickled into the computer's worker processes with its template and params
        return (_rebuild, (self.template, self.params, self.plural))

    def to_json(self) -> JSON:
        """The template (and plural) and params, nested texts included, for a record that must translate it
        later."""
        data: JSON = {"text": self.template}
        if self.plural is not None:
            data["plural"] = self.plural
        data["params"] = {k: v.to_json() if isinstance(v, Text) else v for k, v in self.params.items()}
        return data

    @classmethod
    def from_json(cls, data: Any) -> Any:
        """A text from `to_json` (one stored before texts had plurals too); anything else (a plain value) as it
        is."""
        if not (isinstance(data, dict) and isinstance(data.get("text"), str)):
            return data
        return cls(data["text"], plural=data.get("plural"),
                   **{k: cls.from_json(v) for k, v in (data.get("params") or {}).items()})


def english_form(singular: str, plural: str | None, count: Any) -> str:
    """English's form of a text for `count`: the singular for exactly 1, else the plural (when it has one)."""
    return singular if plural is None or count == 1 else plural


def _rebuild(template: str, params: dict[str, Any], plural: str | None = None) -> Text:
    return Text(template, plural=plural, **params)


def join(parts: list[Any], separator: str = "; ") -> Text:
    """Texts joined into one ("Light's king fell; Blue's king fell"), each part still translatable."""
    if len(parts) == 1 and isinstance(parts[0], Text):
        return parts[0]
    names = {f"p{i}": part for i, part in enumerate(parts)}
    return Text(separator.join("{" + name + "}" for name in names), **names)


def N_(template: str) -> str:
    """Marks a template kept in a table, for `python -m bot.extract_texts`; the `Text` is built where it is used."""
    return template
