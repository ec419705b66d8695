"""Program players for the Grail War RPG."""
