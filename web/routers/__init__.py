"""One router per concern: pages, api, live, actions (behind the PIN) and the virtual table."""
