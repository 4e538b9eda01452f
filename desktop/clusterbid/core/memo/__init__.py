"""The approval memo: content, looks, page layout, and the scored inputs that travel inside it."""

from clusterbid.core.memo.offline_pyhanko import defer_network_clients

# Before any memo module imports pyHanko: signing and verifying offline load no network client.
defer_network_clients()
