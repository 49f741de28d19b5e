#include "cli/cli.h"

int main(int argc, char **argv)
{
	return rung_cli_main(argc, argv);
}
