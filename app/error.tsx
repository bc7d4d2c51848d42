"use client";

import { PageError } from "@/components/ui/error-page";

export default PageError;
