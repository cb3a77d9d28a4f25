"""Saving and loading released model weights with their manifest (base, data, command, metrics)."""
from __future__ import annotations

import hashlib
import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.foundation.base_model import EMBEDDER_NAME
from assistant.foundation.resources import WEIGHTS_DIR

if TYPE_CHECKING:  # torch takes seconds to import: only saving and loading for training need it
    import numpy as np  # and numpy: `assistant ask` starts loading models before importing it
    import torch

__all__ = ["WEIGHTS_DIR", "amend_release", "load_release", "load_release_arrays", "release_files", "save_release",
           "sha256_of", "write_manifest"]


def sha256_of(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def save_release(
    directory: Path, state: dict[str, torch.Tensor], config: dict, data: dict, command: str, metrics: dict
) -> None:
    """Write `model.safetensors` (fp16), `config.json` and `manifest.json` into `directory`."""
    import torch  # heavy: only when training writes a release
    from safetensors.torch import save_file  # needs torch

    directory.mkdir(parents=True, exist_ok=True)
    save_file({k: v.to(torch.float16).contiguous() for k, v in state.items()}, str(directory / "model.safetensors"))
    (directory / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    write_manifest(directory, data, command, metrics)


def write_manifest(directory: Path, data: dict, command: str, metrics: dict, base: str | None = EMBEDDER_NAME,
                   **details) -> Path:
    """Write `manifest.json` into `directory`: base model, data, command, date, code revision, metrics
    (and any `details`, such as a recipe)."""
    manifest = {
        "base": base,
        **details,
        "data": data,
        "command": command,
        "date": datetime.now(UTC).date().isoformat(),
        "code_revision": _git_revision(),
        "metrics": metrics,
    }
    path = directory / "manifest.json"
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    return path


def amend_release(directory: Path, config: dict, data: dict, metrics: dict) -> None:
    """Merge keys into a release's `config.json` and its manifest's `data` and `metrics` (for a part
    fitted after the weights, such as the practice tagger's lexical half)."""
    config_path, manifest_path = directory / "config.json", directory / "manifest.json"
    config_path.write_text(json.dumps(json.loads(config_path.read_text()) | config, indent=2) + "\n")
    manifest = json.loads(manifest_path.read_text())
    manifest["data"] |= data
    manifest["metrics"] |= metrics
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")


def release_files(directory: Path) -> list[Path]:
    """The files that make a release (what its hash covers); an error naming the command if it has no weights.
    A release whose config names a `trunk` (the release, a folder under `WEIGHTS_DIR`, whose encoder layers it
    re-trains the top of) is made from the trunk's files too."""
    if not (directory / "model.safetensors").exists():
        raise FileNotFoundError(f"No trained weights in {directory}: train them first (see its manifest or docs).")
    config = json.loads((directory / "config.json").read_text()) if (directory / "config.json").exists() else {}
    trunk = release_files(WEIGHTS_DIR / config["trunk"]) if config.get("trunk") else []
    return [directory / "model.safetensors", directory / "config.json", *trunk]


def load_release(directory: Path) -> tuple[dict[str, torch.Tensor], dict]:
    """The fp32 trainable weights (torch tensors) and the config of a released model."""
    import torch  # heavy: only the torch side (training, export) asks for tensors
    from safetensors.torch import load_file  # needs torch

    release_files(directory)
    state = {k: v.to(torch.float32) for k, v in load_file(str(directory / "model.safetensors")).items()}
    return state, json.loads((directory / "config.json").read_text())


def load_release_arrays(directory: Path) -> tuple[dict[str, np.ndarray], dict]:
    """The fp32 weights (numpy arrays) and the config of a released model, without torch."""
    import numpy as np  # see TYPE_CHECKING above
    from safetensors.numpy import load_file as load_arrays  # safetensors' numpy side: no torch

    release_files(directory)
    state = {k: v.astype(np.float32) for k, v in load_arrays(str(directory / "model.safetensors")).items()}
    return state, json.loads((directory / "config.json").read_text())


def _git_revision() -> str | None:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True,
            cwd=Path(__file__).parent,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
