"""Write ``src/domino_rules_client/contract.binpb``: the compiled contract that the gRPC
client builds its messages from at run time, so that it needs no generated code and no
particular protobuf release.

It is a ``FileDescriptorSet`` of three files, taken from the service's compiled contract
and googleapis' ``google.rpc`` messages:

- ``domino_rules/v1/domino_rules.proto``, without its REST routes (the
  ``google.api.http`` options, which a gRPC client does not use, and their import);
- ``google/rpc/status.proto`` (it imports ``google/protobuf/any.proto``, which every
  protobuf runtime carries);
- ``google/rpc/error_details.proto``, only its ``ErrorInfo`` and ``RetryInfo`` (it
  imports ``google/protobuf/duration.proto``, also in every runtime).

Run it with the service installed (its ``domino_rules.v1`` package) after a contract
change; a test fails while the file is stale::

    python clients/python/update_contract.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from google.protobuf import descriptor_pb2
from google.rpc import error_details_pb2, status_pb2

from domino_rules.v1 import domino_rules_pb2

OUT = Path(__file__).resolve().parent / "src" / "domino_rules_client" / "contract.binpb"


def contract() -> bytes:
    """The bytes ``contract.binpb`` must hold."""
    rules = descriptor_pb2.FileDescriptorProto.FromString(domino_rules_pb2.DESCRIPTOR.serialized_pb)
    del rules.dependency[:]
    for service in rules.service:
        for method in service.method:
            method.ClearField("options")
    status = descriptor_pb2.FileDescriptorProto.FromString(status_pb2.DESCRIPTOR.serialized_pb)
    details = descriptor_pb2.FileDescriptorProto.FromString(
        error_details_pb2.DESCRIPTOR.serialized_pb
    )
    kept = [m for m in details.message_type if m.name in ("ErrorInfo", "RetryInfo")]
    del details.message_type[:]
    details.message_type.extend(kept)
    files = descriptor_pb2.FileDescriptorSet(file=[rules, status, details])
    return files.SerializeToString(deterministic=True)


def main() -> int:
    data = contract()
    if OUT.exists() and OUT.read_bytes() == data:
        print(f"{OUT.name} is up to date")
        return 0
    OUT.write_bytes(data)
    print(f"wrote {OUT.name} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
