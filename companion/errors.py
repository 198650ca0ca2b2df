"""The one error type that the CLI turns into a clean one-line message (exit 2).

Anything a user can get wrong (a malformed command, a bad file, a broken config) raises
:class:`UserError` or one of the engine's ``ValueError`` subclasses; everything else is a bug
and keeps its traceback.
"""


class UserError(Exception):
    """A mistake the user can fix; the message says what to do."""
