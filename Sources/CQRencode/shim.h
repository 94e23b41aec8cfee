// libqrencode: `aubade web` prints the page's address as a QR code in the terminal.
#include <qrencode.h>
