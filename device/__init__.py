"""The appliance: table file, event loop, event store, screens and the command line."""
