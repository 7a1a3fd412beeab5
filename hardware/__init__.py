"""Table hardware: NFC readers, buttons, LEDs, buzzer and the OLED, each with a fake.

Nothing here imports a Pi driver at import time: RPi.GPIO, spidev and mfrc522 are imported
only when a real reader is opened, luma's I2C interface only when a real display is built.
The facade for the service is :class:`hardware.table.TableHardware`.
"""
