"""What the pages know of how the session's model was made (``session.state.model_about``), as one record: trained
here (on which corpus, with which settings) or loaded (a tokenizer file, GPT-2), and the model as an address's
query parameters, for the Copy link button and the links pages give to other pages.

>>> ModelAbout.loaded_file("tokenizer.json").link is None  # a loaded model cannot travel in a link
True
>>> DEFAULT_MODEL_ABOUT.settings.merges, DEFAULT_MODEL_ABOUT.link  # an address without parameters opens it
(2000, {})
"""

from __future__ import annotations

from dataclasses import dataclass, field

from session.training_settings import DEFAULT_SETTINGS, TrainSettings

PASTE = "paste"  # the Train form's corpus sources that are not textbook corpora: a pasted text,
UPLOAD = "upload"  # .txt files
LOADED_FILE = "file"  # a tokenizer file the user loaded
LOADED_GPT2 = "gpt2"  # GPT-2's published tokenizer


@dataclass(frozen=True)
class ModelAbout:
    """How a model was made. Trained: ``corpus_source`` is the Train form's source (a textbook corpus's key,
    ``"sample"``, ``PASTE``, or ``UPLOAD`` for .txt files) and ``settings`` are its settings. Loaded:
    ``loaded_from`` is ``LOADED_FILE`` (with its ``file_name``) or ``LOADED_GPT2``, and there are no settings.

    ``link`` is the model as query parameters. ``None``: the model cannot travel in a link (trained on files or on a
    text too long for an address, or loaded). Empty: the default model, which an address without parameters opens.
    """

    corpus_source: str = ""
    settings: TrainSettings | None = None
    loaded_from: str = ""
    file_name: str = ""
    link: dict[str, str] | None = field(default=None, hash=False)

    @classmethod
    def trained(cls, corpus_source: str, settings: TrainSettings, link: dict[str, str] | None) -> ModelAbout:
        return cls(corpus_source=corpus_source, settings=settings, link=link)

    @classmethod
    def loaded_file(cls, file_name: str) -> ModelAbout:
        return cls(loaded_from=LOADED_FILE, file_name=file_name)

    @classmethod
    def gpt2(cls) -> ModelAbout:
        return cls(loaded_from=LOADED_GPT2)

    @property
    def link_params(self) -> dict[str, str]:
        """The query parameters that name the model in a link to another page: none when it cannot travel."""
        return dict(self.link or {})


DEFAULT_MODEL_ABOUT = ModelAbout.trained("sample", DEFAULT_SETTINGS, link={})  # session.state's default model
