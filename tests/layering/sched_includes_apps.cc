// Must not compile: the control plane schedules jobs without knowing their apps.
#include "apps/wordcount.h"
