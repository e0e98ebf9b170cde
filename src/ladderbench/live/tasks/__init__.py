"""The built-in live tasks; importing this package registers all of them."""

from ladderbench.live.tasks import (
    amps_hard,
    code_completion,
    code_generation,
    column_type,
    competition,
    connections,
    instruction_following,
    navigation,
    plot_unscrambling,
    proof_fill,
    spatial,
    table_join,
    table_reformat,
    typos,
    web_of_lies,
    zebra,
)

__all__ = [
    "amps_hard",
    "code_completion",
    "code_generation",
    "column_type",
    "competition",
    "connections",
    "instruction_following",
    "navigation",
    "plot_unscrambling",
    "proof_fill",
    "spatial",
    "table_join",
    "table_reformat",
    "typos",
    "web_of_lies",
    "zebra",
]
