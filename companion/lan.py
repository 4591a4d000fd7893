"""The address phones at the table use to reach this computer."""

from __future__ import annotations

import socket


def lan_address() -> str:
    """This machine's LAN IP address, without sending anything.

    Connecting a UDP socket only picks the outgoing interface; no packet leaves.
    Falls back to the host name's address, then to 127.0.0.1.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 1))
            address = str(probe.getsockname()[0])
            if address and not address.startswith("0."):
                return address
    except OSError:
        pass
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


if __name__ == "__main__":
    print(lan_address())
