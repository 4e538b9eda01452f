"""The approval memo: content, looks, page layout, and the scored inputs that travel inside it."""
