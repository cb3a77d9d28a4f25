"""Every shipped model's graph, by name. Each model package declares its graph in its own `graph.py`
(`GraphSpec`: inputs, outputs, default release, shipped precision, torch builder); registering it is one
line here. `assistant.models.runtime` runs the graphs on ONNX Runtime from these specs; the torch side
(`assistant.models.graphs`: build, run and export a graph) is handed a spec and knows no registry."""
from __future__ import annotations

from assistant.models.graph_spec import GraphSpec
from assistant.models.piextract.graph import PIEXTRACT
from assistant.models.policyie.graph import POLICYIE
from assistant.models.practices.graph import PRACTICES
from assistant.models.reader.graph import READER
from assistant.models.retriever.graph import EMBEDDER, QUESTION, RETRIEVER

# in the order `assistant export` lists them
GRAPHS: dict[str, GraphSpec] = {spec.name: spec for spec in (
    EMBEDDER,
    RETRIEVER,
    PRACTICES,
    POLICYIE,
    READER,
    PIEXTRACT,
    QUESTION,
)}


def graph(name: str) -> GraphSpec:
    """The registered graph `name` (a clear error for a name nothing registered)."""
    try:
        return GRAPHS[name]
    except KeyError:
        raise ValueError(f"no model named {name!r} (registered: {', '.join(GRAPHS)})") from None

