"""Words the engines say to players: English, but translatable by the layer that shows them.

An engine knows no languages. Where it says something a player reads (a refusal, a narration line, an end reason,
a picker prompt) it writes `Text("{square} is not your piece", square="c4")`: a str that *is* the English sentence,
so everything that only needs English keeps working, and that also keeps its template and parameters, so the
presenters can look the template up in a language's catalogue and fill it in (`bot.i18n.t` does). A parameter
that is itself a `Text` (a side's name, a piece's name) is translated too; notation never is.

`python -m bot.extract_texts` collects every `Text("…")` literal into the catalogues, as it does `t` and `N_`.
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


class Text(str):
    """An English text that remembers its `template` and `params` (see the module's docstring)."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Text:
        made = super().__new__(cls, template.format(**params) if params else template)
        made.template, made.params = template, params
        return made

    def __reduce__(self) -> tuple:  # pickled into the computer's worker processes with its template and params
        return (_rebuild, (self.template, self.params))

    def to_json(self) -> JSON:
        """The template and params, nested texts included, for a record that must translate it later."""
        return {"text": self.template,
                "params": {k: v.to_json() if isinstance(v, Text) else v for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Any) -> Any:
        """A text from `to_json`; anything else (a plain value) as it is."""
        if not (isinstance(data, dict) and isinstance(data.get("text"), str)):
            return data
        return cls(data["text"], **{k: cls.from_json(v) for k, v in (data.get("params") or {}).items()})


def _rebuild(template: str, params: dict[str, Any]) -> Text:
    return Text(template, **params)


def join(parts: list[Any], separator: str = "; ") -> Text:
    """Texts joined into one ("Light's king fell; Blue's king fell"), each part still translatable."""
    if len(parts) == 1 and isinstance(parts[0], Text):
        return parts[0]
    names = {f"p{i}": part for i, part in enumerate(parts)}
    return Text(separator.join("{" + name + "}" for name in names), **names)


def N_(template: str) -> str:
    """Marks a template kept in a table, for `python -m bot.extract_texts`; the `Text` is built where it is used."""
    return template
