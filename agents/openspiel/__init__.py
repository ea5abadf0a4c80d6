"""OpenSpiel games of the Jass family (the page is being written)."""
