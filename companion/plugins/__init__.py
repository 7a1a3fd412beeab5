"""What is installed from outside the core and found at run time: the editions (entry points)."""
