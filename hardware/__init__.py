"""GPIO controls: buttons, lever and lamps (gpiozero), with a keyboard stand-in off the Pi."""
